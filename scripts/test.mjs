// `npm test`: the two vitest projects, as two processes at once. The sources' tests (unit, flows,
// contracts; coverage over src/) keep the cores busy; the bundle's tests (dist/ in processes of its
// own) mostly wait on those processes, so in one shared pool they would hold workers idle. Run apart,
// the bundle's waits fill the sources' gaps, as in .ci/run. The bundle's output is shown once the
// sources' run ended, so the two never interleave. Arguments (a file, `-t name`, `--project x`) run
// one plain vitest instead, with them.
import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { Buffer } from 'node:buffer'
import path from 'node:path'

// Its command line, beside its package.json (the package's exports name no bin).
const require = createRequire(import.meta.url)
const vitest = path.join(path.dirname(require.resolve('vitest/package.json')), 'vitest.mjs')
const args = process.argv.slice(2)

/** Runs vitest with `argv`; its output to this process's, or kept for later. */
function run(argv, { keep = false } = {}) {
  const child = spawn(process.execPath, [vitest, 'run', ...argv], {
    stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    env: process.env
  })
  const kept = []
  if (keep) {
    child.stdout.on('data', chunk => kept.push(chunk))
    child.stderr.on('data', chunk => kept.push(chunk))
  }
  const done = new Promise(resolve => {
    child.on('error', error => resolve({ code: 1, kept: [Buffer.from(`${error.message}\n`)] }))
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), kept }))
  })
  return { child, done }
}

if (args.length) {
  const { done } = run(args)
  process.exitCode = (await done).code
} else {
  const bundle = run(['--project', 'bundle'], { keep: true })
  const sources = run(['--project', 'sources', '--coverage.enabled'])
  // Ctrl-C ends both.
  process.on('SIGINT', () => {
    bundle.child.kill('SIGINT')
    sources.child.kill('SIGINT')
  })
  const ran = await sources.done
  const bundled = await bundle.done
  process.stdout.write('\n--- the bundle (dist/) as the runner runs it\n')
  for (const chunk of bundled.kept) process.stdout.write(chunk)
  if (ran.code || bundled.code)
    console.error(
      `npm test failed: the sources' tests exited ${ran.code}, the bundle's tests ${bundled.code}.`
    )
  process.exitCode = ran.code || bundled.code
}
