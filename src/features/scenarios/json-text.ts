/**
 * Strict JSON text of a scenario file → a value, or a `JsonSyntaxProblem` with the line and
 * column of the first syntax error and what was expected there. `JSON.parse` reads the value;
 * `jsonc-parser`'s scanner (comments and trailing commas disallowed) locates an error.
 */
import { printParseErrorCode, visit } from 'jsonc-parser';

/** The first syntax error of a JSON text: 1-based line and column, and a reason in words. */
export class JsonSyntaxProblem extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'JsonSyntaxProblem';
  }
}

/**
 * Parses strict JSON (a leading byte-order mark is allowed).
 * @throws JsonSyntaxProblem locating the first syntax error.
 */
export function parseJsonText(text: string): unknown {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return JSON.parse(body);
  } catch (error) {
    throw locateSyntaxError(body) ?? new JsonSyntaxProblem(1, 1, oneLine(error instanceof Error ? error.message : String(error)));
  }
}

/** What came last before an error: it decides what was expected next. */
type Last = 'start' | '{' | '[' | ',' | ':' | 'key' | 'value';

/** Reasons for errors inside one token, by jsonc-parser's error name. */
const TOKEN_ERRORS: Record<string, string> = {
  UnexpectedEndOfString: 'unterminated string',
  InvalidEscapeCharacter: 'invalid escape in string',
  InvalidUnicode: 'invalid \\u escape in string',
  InvalidCharacter: 'line break or control character inside a string',
  InvalidNumberFormat: 'invalid number',
  UnexpectedEndOfNumber: 'invalid number',
  InvalidCommentToken: 'comments are not allowed in JSON',
  UnexpectedEndOfComment: 'comments are not allowed in JSON',
};

/** Runs the scanner over `text` and describes its first error, or returns null. */
function locateSyntaxError(text: string): JsonSyntaxProblem | null {
  const open: Array<'object' | 'array'> = [];
  let last: Last = 'start';
  let found: JsonSyntaxProblem | null = null;
  // The scanner reports a missing `]` or `}` after it has closed the container: keep the
  // state just before the close to say what was expected inside it.
  let beforeClose: { last: Last; container: 'object' | 'array' | undefined } = { last, container: undefined };
  const closed = (): void => {
    beforeClose = { last, container: open.pop() };
    last = 'value';
  };
  visit(
    text,
    {
      onObjectBegin: () => {
        open.push('object');
        last = '{';
      },
      onObjectEnd: closed,
      onArrayBegin: () => {
        open.push('array');
        last = '[';
      },
      onArrayEnd: closed,
      onObjectProperty: () => {
        last = 'key';
      },
      onLiteralValue: () => {
        last = 'value';
      },
      onSeparator: (character) => {
        last = character === ',' ? ',' : ':';
      },
      onError: (code, offset, _length, startLine, startCharacter) => {
        if (found) return;
        const name = printParseErrorCode(code);
        const here = offset >= text.length ? 'the end of the file' : JSON.stringify(text[offset]);
        const state =
          name === 'CloseBraceExpected' || name === 'CloseBracketExpected' ? beforeClose : { last, container: open[open.length - 1] };
        const reason = TOKEN_ERRORS[name] ?? `expected ${expectedAfter(state.last, state.container)}, found ${here}`;
        found = new JsonSyntaxProblem(startLine + 1, startCharacter + 1, reason);
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return found;
}

/** What strict JSON allows after `last` inside `container` (undefined: at the top level). */
function expectedAfter(last: Last, container: 'object' | 'array' | undefined): string {
  if (container === undefined) return last === 'start' ? 'a value' : 'the end of the file';
  if (container === 'object') {
    if (last === '{' || last === ',') return 'a property name in double quotes';
    if (last === 'key') return '":"';
    if (last === ':') return 'a value';
    return '"," or "}"';
  }
  return last === 'value' ? '"," or "]"' : 'a value';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
