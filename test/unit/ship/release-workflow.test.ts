/**
 * .github/workflows/release.yml: on a version tag it checks the tag is package.json's version,
 * runs the project's CI (.ci/run), and only then publishes that checkout to npm with
 * provenance and pushes the image built from the Dockerfile.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = fileURLToPath(new URL('../../..', import.meta.url));
interface Step {
  name?: string;
  run?: string;
  uses?: string;
  env?: Record<string, string>;
}
const workflow = parse(readFileSync(root + '.github/workflows/release.yml', 'utf8')) as {
  on: { push: { tags: string[] } };
  permissions: Record<string, string>;
  jobs: Record<string, { steps: Step[] }>;
};
const jobs = Object.values(workflow.jobs);
const steps = jobs[0]!.steps;
const at = (pattern: RegExp): number => steps.findIndex((s) => pattern.test(s.run ?? ''));

describe('.github/workflows/release.yml', () => {
  it('runs on a version tag, with the permissions provenance and the registry need', () => {
    expect(workflow.on.push.tags).toEqual(['v*.*.*']);
    expect(workflow.permissions).toMatchObject({ 'id-token': 'write', packages: 'write', contents: 'read' });
    expect(jobs).toHaveLength(1);
  });

  it("refuses a tag that is not package.json's version", () => {
    const check = steps[at(/GITHUB_REF_NAME/)]!.run!;
    expect(check).toContain('require("./package.json").version');
    expect(check).toMatch(/exit 1/);
  });

  it('publishes what CI tested: .ci/run first, then npm publish --provenance, then the Dockerfile image pushed', () => {
    const ci = at(/bash \.ci\/run/);
    const publish = at(/^npm publish --provenance/);
    const push = at(/docker push/);
    expect(ci).toBeGreaterThan(at(/GITHUB_REF_NAME/));
    expect(publish).toBeGreaterThan(ci);
    expect(push).toBeGreaterThan(ci);
    expect(steps[publish]!.env?.NODE_AUTH_TOKEN).toContain('secrets.NPM_TOKEN');
    const image = steps[push]!.run!;
    expect(image).toMatch(/docker build [\s\S]*? -t "\$image:\$VERSION" -t "\$image:latest" \.$/m);
    expect(image).toContain('ghcr.io/');
  });
});
