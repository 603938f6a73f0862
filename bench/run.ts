// `npm run bench`: what the action costs its users, measured side by side with what they would
// otherwise use, in one run. Prints the figures and writes bench/results.md. Not a test.
//   npm run bench                  all four, default repetitions
//   npm run bench -- --quick       fewer repetitions
//   npm run bench -- --only waiting   one part: startup, bundle, waiting, export, follow
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { Simulator } from '../test/simulator/server.js'
import { bundleBench } from './bundle.js'
import { exportBench } from './export.js'
import { followBench } from './follow.js'
import { ROOT } from './processes.js'
import { startupBench } from './startup.js'
import type { Goal } from './stats.js'
import { waitingBench } from './waiting.js'

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    scale: { type: 'string', default: '25' }
  }
})
const want = (part: string): boolean => !values.only || values.only === part
const quick = values.quick
const out: string[] = []
const goals: Goal[] = []
const print = (line = ''): void => {
  console.log(line)
  out.push(line)
}
const table = (head: string[], rows: (string | number)[][]): void => {
  print(`| ${head.join(' | ')} |`)
  print(`|${head.map(() => '---').join('|')}|`)
  for (const row of rows) print(`| ${row.join(' | ')} |`)
  print()
}

print('# Benchmark results')
print()
print(
  `Node ${process.versions.node}, ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}, ${new Date().toISOString().slice(0, 10)}. ` +
    'Medians of repeated runs; ratios are to a baseline measured in the same run. Reproduce with `npm run bench`.'
)
print()

const sim = await Simulator.start({
  job: { durationMs: 60_000 },
  agentLimitPerHour: 1e9,
  analyticsLimitPerHour: 1e9
})
try {
  if (want('startup')) {
    const reps = quick ? 7 : 21
    const r = await startupBench(sim, reps)
    print(`## Start-up (${reps} runs each, clean environment)`)
    print()
    print(
      'Wall time from spawn to the first request reaching the simulator (bare Node and fail-fast: to exit); peak RSS of the whole run.'
    )
    print()
    table(
      ['path', 'ms', '× bare Node', 'peak MiB'],
      r.rows.map(x => [x.path, x.ms, x.ratio, x.peakMiB])
    )
    goals.push(...r.goals)
  }
  if (want('bundle')) {
    const r = bundleBench()
    print('## Bundle')
    print()
    table(
      ['file', 'bytes', 'gzip bytes'],
      r.rows.map(x => [x.file, x.bytes.toLocaleString('en-US'), x.gzip.toLocaleString('en-US')])
    )
    table(
      ['entry', 'KB', 'undici copies'],
      r.entries.map(x => [x.entry, Math.round(x.bytes / 1000), x.undici])
    )
    goals.push(...r.goals)
  }
  if (want('waiting')) {
    // An even count: stratified lengths then never fall exactly on a 10 s boundary, where which
    // contender sees the job first is decided by timer noise alone.
    const reps = quick ? 6 : 10
    const scale = Number(values.scale)
    const r = await waitingBench(reps, scale)
    print(`## Waiting (${reps} jittered lengths each, time compressed ${scale}×)`)
    print()
    print(
      'Detection delay: the moment the contender saw the terminal status minus the moment the job reached it. The fixed loops check, then sleep while the job is active, as hand-written `curl` loops do.'
    )
    print()
    table(
      ['job length', 'contender', 'median delay (s)', 'median status requests'],
      r.rows.map(x => [`${x.lengthS} s`, x.contender, x.delayS, x.requests])
    )
    goals.push(...r.goals)
  }
  if (want('export')) {
    const reps = quick ? 1 : 3
    const r = await exportBench(sim, reps)
    print(`## Visitors export (${reps} runs each)`)
    print()
    table(
      ['rows', 'contender', 'requests', 'wall s', 'peak MiB'],
      r.rows.map(x => [
        x.rows.toLocaleString('en-US'),
        x.contender,
        x.requests,
        x.seconds,
        x.peakMiB
      ])
    )
    goals.push(...r.goals)
  }
  if (want('follow')) {
    const r = await followBench()
    print('## Docs follow code (the ledger on the dashboard issue)')
    print()
    print(
      'Ten pull requests merged in a row; the first docs pull request stays open. Either every run executes, or only runs 1, 4 and 10 do: what GitHub leaves when a concurrency group cancels pending runs. Writes are jobs created + follow-ups sent.'
    )
    print()
    table(
      ['contender', 'runs', 'merges reaching a prompt', 'writes', 'docs pull requests'],
      r.contenders.map(x => [x.contender, x.runs, x.documented, x.writes, x.docsPrs])
    )
    print(
      "GitHub requests of each kind of run (the ledger's: reading and writing the dashboard issue). GITHUB_TOKEN allows 1,000 an hour."
    )
    print()
    table(
      ['run', 'GitHub requests', 'of which the ledger', 'which'],
      r.runs.map(x => [x.run, x.requests, x.ledger, x.calls])
    )
    table(
      ['run', 'peak MiB'],
      r.memory.map(x => [x.run, x.peakMiB])
    )
    goals.push(...r.goals)
  }
} finally {
  await sim.close()
}

print('## Goals')
print()
table(
  ['goal', 'figure', 'bar', ''],
  goals.map(g => [g.name, g.figure, g.bar, g.pass ? 'PASS' : '**MISS**'])
)
const missed = goals.filter(g => !g.pass).length
print(missed ? `${missed} of ${goals.length} goals missed.` : `All ${goals.length} goals met.`)
if (!values.only)
  writeFileSync(path.join(ROOT, 'bench', 'results.md'), `${out.join('\n').trim()}\n`)
