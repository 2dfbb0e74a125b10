/**
 * A structural check of a JUnit XML document against the rules of the Ant/Jenkins JUnit
 * schema (`JUnit.xsd`, windyroad/JUnit-Schema, the one Jenkins' and GitLab's JUnit readers
 * follow), written out here because no XSD validator is among the project's packages: a
 * strict little XML parser (well-formedness: one root, matched tags, quoted attributes, no raw
 * `<` or stray `&` in text) and then the schema's elements, attributes, types and order. It
 * also takes a test case's `<skipped message>` and the suite's `skipped` count, from Maven
 * Surefire's report schema, which the same readers accept.
 * Returns the problems found (none for a valid document).
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const ENTITY = /^&(?:lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/;

/** Parses a whole XML document (declaration, one root element, no DTD). Throws on malformed input. */
export function parseXml(xml: string): XmlElement {
  let at = 0;
  const fail = (message: string): never => {
    throw new Error(`${message} at offset ${at}: ${JSON.stringify(xml.slice(at, at + 40))}`);
  };
  const skipSpace = (): void => {
    while (at < xml.length && /\s/.test(xml[at]!)) at += 1;
  };
  const decode = (raw: string): string => {
    for (let i = raw.indexOf('&'); i >= 0; i = raw.indexOf('&', i + 1)) if (!ENTITY.test(raw.slice(i))) fail('stray & in text');
    if (raw.includes('<')) fail('raw < in text');
    return raw
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  };
  const element = (): XmlElement => {
    if (xml[at] !== '<') fail('expected <');
    at += 1;
    const name = NAME.exec(xml.slice(at))?.[0] ?? fail('expected an element name');
    at += name.length;
    const attributes: Record<string, string> = {};
    for (;;) {
      const before = at;
      skipSpace();
      if (xml.startsWith('/>', at)) {
        at += 2;
        return { name, attributes, children: [], text: '' };
      }
      if (xml[at] === '>') {
        at += 1;
        break;
      }
      if (at === before) fail('expected whitespace before an attribute');
      const attr = NAME.exec(xml.slice(at))?.[0] ?? fail('expected an attribute name');
      at += attr.length;
      if (xml[at] !== '=' || (xml[at + 1] !== '"' && xml[at + 1] !== "'")) fail('expected ="..."');
      const quote = xml[at + 1]!;
      const end = xml.indexOf(quote, at + 2);
      if (end < 0) fail('unterminated attribute');
      if (attr in attributes) fail(`duplicate attribute ${attr}`);
      attributes[attr] = decode(xml.slice(at + 2, end));
      at = end + 1;
    }
    const children: XmlElement[] = [];
    let text = '';
    for (;;) {
      const next = xml.indexOf('<', at);
      if (next < 0) fail(`unclosed <${name}>`);
      text += decode(xml.slice(at, next));
      at = next;
      if (xml.startsWith('</', at)) {
        const close = `</${name}>`;
        if (!xml.startsWith(close, at)) fail(`expected ${close}`);
        at += close.length;
        return { name, attributes, children, text };
      }
      children.push(element());
    }
  };
  if (xml.startsWith('<?xml')) {
    const end = xml.indexOf('?>');
    if (end < 0) fail('unterminated declaration');
    at = end + 2;
  }
  skipSpace();
  const root = element();
  skipSpace();
  if (at !== xml.length) fail('content after the root element');
  return root;
}

const TOKEN = (v: string) => v.length > 0 && !/^\s|\s$|[\t\n\r]| {2}/.test(v);
const INT = (v: string) => /^[+-]?\d+$/.test(v);
const DECIMAL = (v: string) => /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(v);
/** The schema's ISO8601_DATETIME_PATTERN on xs:dateTime: no fraction, no zone. */
const TIMESTAMP = (v: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v);

/** The problems of a document against the Ant/Jenkins JUnit schema; [] when valid. */
export function junitProblems(xml: string): string[] {
  const problems: string[] = [];
  let root: XmlElement;
  try {
    root = parseXml(xml);
  } catch (err) {
    return [`not well-formed XML: ${(err as Error).message}`];
  }
  const attrs = (
    el: XmlElement,
    where: string,
    required: Record<string, (v: string) => boolean>,
    optional: Record<string, (v: string) => boolean> = {},
  ): void => {
    for (const [name, ok] of Object.entries(required)) {
      const value = el.attributes[name];
      if (value === undefined) problems.push(`${where}: missing attribute ${name}`);
      else if (!ok(value)) problems.push(`${where}: bad ${name}="${value}"`);
    }
    for (const [name, value] of Object.entries(el.attributes)) {
      if (name in required) continue;
      if (!(name in optional)) problems.push(`${where}: attribute ${name} is not in the schema`);
      else if (!optional[name]!(value)) problems.push(`${where}: bad ${name}="${value}"`);
    }
  };
  const noText = (el: XmlElement, where: string): void => {
    if (el.text.trim() !== '') problems.push(`${where}: text is not allowed here`);
  };
  const suite = (el: XmlElement, where: string, inSuites: boolean): void => {
    attrs(
      el,
      where,
      {
        name: TOKEN,
        timestamp: TIMESTAMP,
        hostname: TOKEN,
        tests: INT,
        failures: INT,
        errors: INT,
        time: DECIMAL,
        ...(inSuites ? { package: TOKEN, id: INT } : {}),
      },
      { skipped: INT },
    );
    noText(el, where);
    const names = el.children.map((c) => c.name);
    const shape = names.join(' ');
    if (!/^properties( testcase)*( system-out)( system-err)$/.test(shape))
      problems.push(`${where}: children must be properties, testcase*, system-out, system-err; got ${shape}`);
    for (const p of el.children.filter((c) => c.name === 'properties')) {
      noText(p, `${where}/properties`);
      attrs(p, `${where}/properties`, {});
      for (const prop of p.children) {
        if (prop.name !== 'property') problems.push(`${where}/properties: <${prop.name}> is not allowed`);
        attrs(prop, `${where}/property`, { name: TOKEN, value: () => true });
        if (prop.children.length > 0 || prop.text !== '') problems.push(`${where}/property: must be empty`);
      }
    }
    let failures = 0;
    let errors = 0;
    let skipped = 0;
    const cases = el.children.filter((c) => c.name === 'testcase');
    for (const tc of cases) {
      const at = `${where}/testcase[${tc.attributes.name ?? '?'}]`;
      attrs(tc, at, { name: TOKEN, classname: TOKEN, time: DECIMAL });
      noText(tc, at);
      if (tc.children.length > 1) problems.push(`${at}: at most one error, failure or skipped`);
      for (const outcome of tc.children) {
        if (outcome.name === 'skipped') {
          attrs(outcome, `${at}/skipped`, {}, { message: () => true });
          if (outcome.children.length > 0) problems.push(`${at}/skipped: only text is allowed`);
          skipped += 1;
          continue;
        }
        if (outcome.name !== 'failure' && outcome.name !== 'error') problems.push(`${at}: <${outcome.name}> is not allowed`);
        attrs(outcome, `${at}/${outcome.name}`, { type: () => true }, { message: () => true });
        if (outcome.children.length > 0) problems.push(`${at}/${outcome.name}: only text is allowed`);
        if (outcome.name === 'failure') failures += 1;
        else errors += 1;
      }
    }
    for (const out of el.children.filter((c) => c.name === 'system-out' || c.name === 'system-err')) {
      attrs(out, `${where}/${out.name}`, {});
      if (out.children.length > 0) problems.push(`${where}/${out.name}: only text is allowed`);
    }
    if (el.attributes.tests !== String(cases.length))
      problems.push(`${where}: tests="${el.attributes.tests}" but ${cases.length} test cases`);
    if (el.attributes.failures !== String(failures))
      problems.push(`${where}: failures="${el.attributes.failures}" but ${failures} failures`);
    if (el.attributes.errors !== String(errors)) problems.push(`${where}: errors="${el.attributes.errors}" but ${errors} errors`);
    if ((el.attributes.skipped ?? '0') !== String(skipped))
      problems.push(`${where}: skipped="${el.attributes.skipped ?? ''}" but ${skipped} skipped`);
  };
  if (root.name === 'testsuites') {
    attrs(root, 'testsuites', {});
    noText(root, 'testsuites');
    root.children.forEach((child, i) => {
      if (child.name !== 'testsuite') problems.push(`testsuites: <${child.name}> is not allowed`);
      else suite(child, `testsuite[${i}]`, true);
    });
  } else if (root.name === 'testsuite') suite(root, 'testsuite', false);
  else problems.push(`root must be testsuites or testsuite, not ${root.name}`);
  return problems;
}
