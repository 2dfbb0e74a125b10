/**
 * The image the container checks run (test/image). With `PAYMENT_SANDBOX_IMAGE` set, the image
 * of that name, built ahead from ./Dockerfile (`.ci/run` builds it beside the suite; the
 * workflow builds it from its layer cache), is given the check's tag; otherwise ./Dockerfile is
 * built now. Either way the engine's layer cache keys each step by the content it copies, so an
 * unchanged tree builds again in seconds (measured here with podman: 1 min 48 s, then 4 s,
 * also from a fresh clone).
 */
import { spawnSync } from 'node:child_process';

/** Makes `tag` name the image of ./Dockerfile in `root`, with `engine` (`docker` or `podman`) and its build arguments. */
export function prepareImage(engine: string, buildArgs: readonly string[], tag: string, root: string): void {
  const prebuilt = process.env.PAYMENT_SANDBOX_IMAGE;
  const args = prebuilt ? ['tag', prebuilt, tag] : ['build', ...buildArgs, '-t', tag, '.'];
  const res = spawnSync(engine, args, { cwd: root, encoding: 'utf8', timeout: 900_000 });
  if (res.status !== 0) throw new Error(`${engine} ${args.join(' ')} exited ${res.status}: ${res.stderr || res.stdout}`);
}
