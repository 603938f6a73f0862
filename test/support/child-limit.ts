import type { ChildProcess } from 'node:child_process'

/**
 * Kills `child` (with `kill`, SIGKILL by default) once `ms` have passed, unless it ended first, and
 * says so through `killed`. For every process a test starts.
 */
export function limitChild(
  child: ChildProcess,
  ms: number,
  killed: (line: string) => void,
  kill: () => void = () => child.kill('SIGKILL')
): void {
  const timer = setTimeout(() => {
    killed(`[test] killed after ${ms / 1000} s: the process did not end within its time limit`)
    kill()
  }, ms)
  timer.unref()
  child.once('exit', () => clearTimeout(timer))
}
