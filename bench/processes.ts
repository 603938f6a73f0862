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
  /** The heap still held after a full collection at exit (KiB), with `--expose-gc` in `nodeArgs`. */
  keptKiB?: number
  code: number | null
  /** The run's GITHUB_OUTPUT file, read before its folder is removed. */
  output: string
  /** What it wrote to stdout (its log), with `log: true`; empty otherwise. */
  log: string
}

export interface MeasureOptions {
  /** Node's own flags, before the preload and the script. */
  nodeArgs?: string[]
  /** The working folder (the workspace); a fresh one, removed afterwards, when absent. */
  workspace?: string
  /** Keep stdout (the log); start-up runs leave it unread, as a runner reads it off the pipe. */
  log?: boolean
}

/**
 * Runs `node -r max-rss.cjs ...args` with a clean environment (PATH, HOME and the given variables)
 * as the runner would, and measures it. `watch` receives a `mark` to call at the moment that counts.
 */
export async function measure(
  args: string[],
  env: Record<string, string>,
  watch?: (mark: () => void) => () => void,
  options: MeasureOptions = {}
): Promise<Measured> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-'))
  const workspace = options.workspace ?? dir
  const rssFile = path.join(dir, 'rss')
  for (const name of ['output', 'summary', 'state']) writeFileSync(path.join(dir, name), '')
  const fullEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    BENCH_RSS_FILE: rssFile,
    GITHUB_WORKSPACE: workspace,
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
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '-r', PRELOAD, ...args], {
    env: fullEnv,
    stdio: ['ignore', options.log ? 'pipe' : 'ignore', 'ignore'],
    cwd: workspace
  })
  let log = ''
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (log += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('close', resolve)
  })
  const totalMs = performance.now() - started
  stop?.()
  const last = readFileSync(rssFile, 'utf8').trim().split('\n').pop() ?? '{}'
  const { peak, kept } = JSON.parse(last) as { peak: number; kept: number | null }
  const output = readFileSync(path.join(dir, 'output'), 'utf8')
  rmSync(dir, { recursive: true, force: true })
  return { totalMs, markMs, peakKiB: peak, keptKiB: kept ?? undefined, code, output, log }
}

/** `INPUT_*` variables the way the runner names them. */
export function inputs(values: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]))
}

/** The outputs a run wrote to its GITHUB_OUTPUT file (`name<<delimiter` blocks and `name=value` lines). */
export function outputsOf(file: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = file.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const block = /^([^=<]+)<<(.+)$/.exec(line)
    if (block) {
      const end = lines.indexOf(block[2] as string, i + 1)
      outputs[block[1] as string] = lines.slice(i + 1, end).join('\n')
      i = end
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1)
    }
  }
  return outputs
}

/** The bundle folder measured: this checkout's dist/, or ACTION_DIST's (as the tests run it). */
export const dist = (file: string): string =>
  path.join(ROOT, process.env.ACTION_DIST ?? 'dist', file)
