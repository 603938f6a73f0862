import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const PRELOAD = path.join(ROOT, 'bench', 'max-rss.cjs')

export interface Measured {
  /** Spawn to exit, ms. */
  totalMs: number
  /** Spawn to `mark()` being called, ms, when it was. */
  markMs?: number
  peakKiB: number
  code: number | null
}

/**
 * Runs `node -r max-rss.cjs ...args` with a clean environment (PATH, HOME and the given variables)
 * as the runner would, and measures it. `watch` receives a `mark` to call at the moment that counts.
 */
export async function measure(
  args: string[],
  env: Record<string, string>,
  watch?: (mark: () => void) => () => void
): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'))
  const rssFile = path.join(dir, 'rss')
  for (const name of ['output', 'summary', 'state']) writeFileSync(path.join(dir, name), '')
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    BENCH_RSS_FILE: rssFile,
    GITHUB_WORKSPACE: dir,
    GITHUB_OUTPUT: path.join(dir, 'output'),
    GITHUB_STEP_SUMMARY: path.join(dir, 'summary'),
    GITHUB_STATE: path.join(dir, 'state'),
    RUNNER_TEMP: dir,
    ...env
  }
  let markMs: number | undefined
  const started = performance.now()
  const stop = watch?.(() => {
    markMs ??= performance.now() - started
  })
  const child = spawn(process.execPath, ['-r', PRELOAD, ...args], {
    env: fullEnv,
    stdio: 'ignore',
    cwd: dir
  })
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const totalMs = performance.now() - started
  stop?.()
  const peakKiB = Number(readFileSync(rssFile, 'utf8').trim().split('\n').pop())
  rmSync(dir, { recursive: true, force: true })
  return { totalMs, markMs, peakKiB, code }
}

/** `INPUT_*` variables the way the runner names them. */
export function inputs(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
}
