// `npm run bench`: what the action costs its users, measured side by side with what they would
// otherwise use, in one run, on Node 24 (the runtime action.yml names). Prints the figures, writes
// bench/results.md with each figure beside the one before issue 20's changes (bench/before.json),
// and regenerates the table of docs/performance.md. A missed goal, or a figure worse than the last
// run that met every goal (bench/figures.json), fails it: exit 1, and the results go to
// .tmp/bench-results.md, leaving the committed ones as they were. Not a test.
//   npm run bench                   every part, default repetitions
//   npm run bench -- --quick        fewer repetitions
//   npm run bench -- --only gaps    one part: startup, bundle, waiting, export, limit, gaps, follow, push, impact, project
//   npm run bench -- --before       record this checkout's figures as bench/before.json instead
//   npm run bench -- --any-node     measure on the Node that runs it, whichever it is
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { parseArgs } from 'node:util'
import * as prettier from 'prettier'
import { Simulator } from '../test/simulator/server.js'
import { removeTemporaryFolders } from '../test/support/temporary.js'
import { bundleBench } from './bundle.js'
import { exportBench } from './export.js'
import { type Value, type Watch, Figures, readFigures, writeFigures } from './figures.js'
import { followBench } from './follow.js'
import { docsProjectBench } from './docs-project.js'
import { gapsBench, gapsCausesBench } from './gaps.js'
import { impactBench } from './impact.js'
import { ANALYTICS_PER_HOUR, limitBench } from './limit.js'
import { ROOT } from './processes.js'
import { pushBench } from './push.js'
import { startupBench } from './startup.js'
import type { Goal } from './stats.js'
import { waitingBench } from './waiting.js'

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    scale: { type: 'string', default: '25' },
    before: { type: 'boolean', default: false },
    'any-node': { type: 'boolean', default: false }
  }
})

// The runners start the action on Node 24: measure there. npx brings it when this machine has another.
if (process.versions.node.split('.')[0] !== '24' && !values['any-node']) {
  console.log(`Node ${process.versions.node} here: measuring on Node 24 (npx -y node@24).`)
  const again = spawnSync(
    'npx',
    [
      '-y',
      'node@24',
      '--import',
      'tsx',
      path.join(ROOT, 'bench', 'run.ts'),
      ...process.argv.slice(2)
    ],
    { stdio: 'inherit', cwd: ROOT }
  )
  process.exit(again.status ?? 1)
}

const BEFORE_FILE = path.join(ROOT, 'bench', 'before.json')
const BASELINE_FILE = path.join(ROOT, 'bench', 'figures.json')
const want = (part: string): boolean => !values.only || values.only === part
const quick = values.quick
const figures = new Figures(
  values.before ? undefined : readFigures(BEFORE_FILE),
  values.before ? undefined : (readFigures(BASELINE_FILE) ?? readFigures(BEFORE_FILE))
)
const fig = <T extends Value>(key: string, value: T): T => figures.set(key, value)
const was = (key: string): string => figures.was(key)
const out: string[] = []
const goals: Goal[] = []
const print = (line = ''): void => {
  console.log(line)
  out.push(line)
}
const table = (head: string[], rows: (string | number | boolean | null)[][]): void => {
  print(`| ${head.join(' | ')} |`)
  print(`|${head.map(() => '---').join('|')}|`)
  for (const row of rows) print(`| ${row.map(cell => cell ?? '—').join(' | ')} |`)
  print()
}
const n = (value: number): string => value.toLocaleString('en-US')
const slug = (text: string): string =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
const machine = `${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'}`
const date = new Date().toISOString().slice(0, 10)

print('# Benchmark results')
print()
print(
  `Node ${process.versions.node}, ${machine}, ${date}. ` +
    'Medians of repeated runs; ratios are to a baseline measured in the same run. Reproduce with `npm run bench` (it runs on Node 24).'
)
print()
const beforeFile = readFigures(BEFORE_FILE)
if (!values.before && beforeFile) {
  print(
    `"Before" columns: the same bench on the version before issue 20's changes (${beforeFile.source}), Node ${beforeFile.node}, ${beforeFile.date}; "—" where that version had nothing to measure.`
  )
  print()
}

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
      'Wall time from spawn to the first request reaching the simulator or GitHub (with a comment: the comment, which an issue run posts before it creates the job; bare Node and fail-fast: to exit); peak RSS of the whole run. ' +
        'Bare Node making the same request is the floor for Node and HTTP: the request the visitors sub-action sends first, with `node:http` or `fetch` and nothing else.'
    )
    print()
    table(
      [
        'path',
        'ms',
        'before',
        '× bare Node',
        'before',
        '× Node + request',
        'before',
        'peak MiB',
        'before'
      ],
      r.rows.map(x => {
        const k = `startup.${slug(x.path)}`
        return [
          x.path,
          fig(`${k}.ms`, x.ms),
          was(`${k}.ms`),
          fig(`${k}.ratio`, x.ratio),
          was(`${k}.ratio`),
          fig(`${k}.request-ratio`, x.requestRatio),
          was(`${k}.request-ratio`),
          fig(`${k}.peak`, x.peakMiB),
          was(`${k}.peak`)
        ]
      })
    )
    goals.push(...r.goals)
  }
  if (want('bundle')) {
    const r = bundleBench()
    print('## Bundle')
    print()
    table(
      ['file', 'bytes', 'before', 'gzip bytes', 'before'],
      r.rows.map(x => [
        x.file,
        n(fig(`bundle.${slug(x.file)}.bytes`, x.bytes)),
        was(`bundle.${slug(x.file)}.bytes`),
        n(fig(`bundle.${slug(x.file)}.gzip`, x.gzip)),
        was(`bundle.${slug(x.file)}.gzip`)
      ])
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
      ['job length', 'contender', 'median delay (s)', 'before', 'median status requests', 'before'],
      r.rows.map(x => {
        const k = `waiting.${x.lengthS}.${slug(x.contender)}`
        return [
          `${x.lengthS} s`,
          x.contender,
          fig(`${k}.delay`, x.delayS),
          was(`${k}.delay`),
          fig(`${k}.requests`, x.requests),
          was(`${k}.requests`)
        ]
      })
    )
    goals.push(...r.goals)
  }
  if (want('export')) {
    const reps = quick ? 1 : 3
    const r = await exportBench(sim, reps)
    print(
      `## Visitors export: requests, time and memory as the rows grow (${reps} runs each; once from 250,000 rows)`
    )
    print()
    print(
      'Paths of 40 characters, as real sites have. The simulator’s hourly limit is lifted and `max-requests` set to what the rows need: these runs measure the export, not the limit (see the next part). ' +
        'Peak: the whole run’s resident memory. Kept (the sub-action, one more run): the most heap the process held just after a full collection, forced every 100 ms, which is what grows with the rows when rows are kept; the peak also holds garbage not yet collected, and Node 24 grows its young generation with the allocation rate (up to 64 MiB), whatever is kept.'
    )
    print()
    table(
      [
        'rows',
        'contender',
        'requests',
        'before',
        'wall s',
        'before',
        'peak MiB',
        'before',
        'kept MiB',
        'before'
      ],
      r.rows.map(x => {
        const k = `export.${x.rows}.${slug(x.contender)}`
        const shown = (v: number | null) => (x.failed ? '—' : v)
        return [
          n(x.rows),
          x.contender,
          x.failed ? `failed: ${x.failed}` : fig(`${k}.requests`, x.requests),
          was(`${k}.requests`),
          shown(fig(`${k}.seconds`, x.seconds)),
          was(`${k}.seconds`),
          shown(fig(`${k}.peak`, x.peakMiB)),
          was(`${k}.peak`),
          shown(fig(`${k}.kept`, x.keptMiB)),
          was(`${k}.kept`)
        ]
      })
    )
    goals.push(...r.goals)
  }
  if (want('limit')) {
    const r = await limitBench()
    print(
      `## Visitors export within the documented limit (${ANALYTICS_PER_HOUR} analytics requests an hour)`
    )
    print()
    print(
      `The service allows ${ANALYTICS_PER_HOUR} analytics requests per organisation per hour, shared by every use; at 250 rows a request that is ${n(ANALYTICS_PER_HOUR * 250)} rows an hour, and the default \`max-requests\` (50) exports ${n(50 * 250)} rows a run. ` +
        'A site of 100,000 pages with 40-character paths, the simulator holding that limit (not lifted) on its own clock: the default run, then each run going on from the one before (`offset` from `next-offset`), one every 30 minutes, and an extra run right after the second.'
    )
    print()
    table(
      ['run', 'minute', 'offset', 'exit', 'requests', 'rows', 'next-offset', 'what it said'],
      r.runs.map((x, i) => [
        i + 1,
        x.at,
        n(x.offset),
        fig(`limit.run${i + 1}.exit`, x.exit),
        fig(`limit.run${i + 1}.requests`, x.requests),
        n(fig(`limit.run${i + 1}.rows`, x.rows)),
        x.nextOffset || '—',
        x.said.replace(/\|/g, '\\|') || '—'
      ])
    )
    table(
      ['figure', 'now', 'before'],
      [
        [
          'rows the first run (defaults) exported',
          n(fig('limit.first-rows', r.runs[0]?.rows ?? 0)),
          was('limit.first-rows')
        ],
        ['runs until the last row', fig('limit.runs', r.runsToFinish), was('limit.runs')],
        ['rows exported in all', n(fig('limit.rows', r.rowsExported)), was('limit.rows')],
        ['every row once, in order', fig('limit.exact', r.exact), was('limit.exact')]
      ]
    )
    goals.push(...r.goals)
  }
  if (want('gaps')) {
    const reps = quick ? 1 : 3
    const r = await gapsBench(reps)
    print(`## Docs gaps on a big site (${reps} runs)`)
    print()
    print(
      'The docs-gaps sub-action with its defaults (top 10, min-hits 2, max-requests 20) against the simulator with the documented limit, on a site with 100,000 search events over 20,000 terms, 10,000 feedback entries over 90 pages and 10,000 assistant turns over 400 questions. ' +
        'True top 10: the report’s first ten entries equal the ten worked out from all the rows (test/support/gaps-expected.ts).'
    )
    print()
    table(
      ['figure', 'now', 'before'],
      [
        ['requests', fig('gaps.requests', r.requests), was('gaps.requests')],
        ['complete', fig('gaps.complete', r.complete), was('gaps.complete')],
        ['top-complete', fig('gaps.top-complete', r.topComplete), was('gaps.top-complete')],
        ...r.signals.flatMap(s => [
          [
            `${s.signal}: requests`,
            fig(`gaps.${s.signal}.requests`, s.requests),
            was(`gaps.${s.signal}.requests`)
          ],
          [
            `${s.signal}: true top 10`,
            fig(`gaps.${s.signal}.true-top`, s.trueTop),
            was(`gaps.${s.signal}.true-top`)
          ],
          [
            `${s.signal}: left unread`,
            fig(`gaps.${s.signal}.unread`, s.unread.replace(/\|/g, '\\|') || '—'),
            was(`gaps.${s.signal}.unread`)
          ]
        ]),
        ['wall s', fig('gaps.seconds', r.seconds), was('gaps.seconds')],
        ['peak MiB', fig('gaps.peak', r.peakMiB), was('gaps.peak')]
      ]
    )
    goals.push(...r.goals)
    const c = await gapsCausesBench()
    print()
    print('### Docs gaps tied to changes (changes-since)')
    print()
    print(
      'The rename world (test/simulator/analytics-dated.ts): a merge renamed `--follow` to `--watch` and readers searched for `--watch` in vain; the ledger lists 100 changes (the rename, a direct push, 98 others merged across the range), the most a run reads. Requests counted at the simulator and the fake GitHub.'
    )
    print()
    table(
      ['figure', 'now', 'before'],
      [
        [
          'analytics requests per tied report',
          fig('gaps-causes.requests', c.requests),
          was('gaps-causes.requests')
        ],
        [
          'of them, to split at merges',
          fig('gaps-causes.split', c.splitRequests),
          was('gaps-causes.split')
        ],
        [
          'GitHub requests per tied report',
          fig('gaps-causes.github', c.githubRequests),
          was('gaps-causes.github')
        ],
        ['changes read', fig('gaps-causes.changes', c.changes), was('gaps-causes.changes')],
        ['gaps tied', fig('gaps-causes.ties', c.ties), was('gaps-causes.ties')],
        ['`--watch`', fig('gaps-causes.watch', c.watch), was('gaps-causes.watch')],
        ['wall s', fig('gaps-causes.seconds', c.seconds), was('gaps-causes.seconds')]
      ]
    )
    goals.push(...c.goals)
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
      r.contenders.map(x => {
        const k = `follow.${slug(x.contender)}`
        return [
          x.contender,
          x.runs,
          fig(`${k}.documented`, x.documented),
          fig(`${k}.writes`, x.writes),
          fig(`${k}.docs-prs`, x.docsPrs)
        ]
      })
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
      r.memory.map(x => [x.run, fig(`follow.memory.${slug(x.run)}`, x.peakMiB)])
    )
    goals.push(...r.goals)
  }
  if (want('push')) {
    const r = await pushBench()
    print('## Pushes without pull requests')
    print()
    print(
      "Peak memory of a run on a push of 3 commits sharing 300 files whose patches are 1 MB each: the commits' files are named from GitHub's REST pages, whose patches are dropped as they stream in."
    )
    print()
    table(
      ['run', 'peak MiB'],
      r.memory.map(x => [x.run, fig(`push.memory.${slug(x.run)}`, x.peakMiB)])
    )
    goals.push(...r.goals)
  }
  if (want('project')) {
    const r = await docsProjectBench()
    print('## One docs project, ten code repositories (a week)')
    print()
    print(
      `${r.merges} merged pull requests over a week in ten code repositories, each dispatching to the docs repository; ${r.dispatches.lost} of ${r.dispatches.sent + r.dispatches.lost} dispatches lost, ${r.dispatches.cancelled} runs cancelled by the concurrency group (it keeps the newest pending run), a catch-up each day at 05:23, and each docs pull request merged four hours after it opened. In-process on the simulator and the fake GitHub, on a virtual clock.`
    )
    print()
    table(
      [
        'runs',
        'merges missed',
        'in two prompts',
        'longest wait (h)',
        'open docs PRs at once',
        'writes',
        'most in an hour',
        'most in 24 h'
      ],
      [
        [
          r.runs,
          fig('project.missed', r.missed),
          fig('project.twice', r.twice),
          r.longestWaitHours,
          fig('project.open-docs-prs', r.maxOpenDocsPrs),
          r.writes,
          fig('project.writes-per-hour', r.maxWritesPerHour),
          fig('project.writes-per-day', r.maxWritesPerDay)
        ]
      ]
    )
    print(
      "GitHub requests of a run, by how many repositories had news (each day's median: " +
        r.requests.perDay.join(', ') +
        ').'
    )
    print()
    table(
      ['repositories with news', 'runs', 'fewest requests', 'most requests'],
      r.requests.byNews.map(x => [x.news, x.runs, x.min, x.max])
    )
    print(
      "GitHub's side of a run: its content writes (comments, dashboard edits, review requests; sent a second apart), and the TCP connections it opened to GitHub (one client per token, whatever the number of repositories)."
    )
    print()
    table(
      ['', 'most in a run', 'median'],
      [
        [
          'GitHub writes',
          fig('project.github-writes-max', r.github.writes.max),
          r.github.writes.median
        ],
        [
          'connections to GitHub',
          fig('project.github-connections-max', r.github.connections.max),
          r.github.connections.median
        ]
      ]
    )
    goals.push(...r.goals)
  }
  if (want('impact')) {
    const r = await impactBench()
    print('## Reader impact of merged docs pull requests')
    print()
    print(
      `${r.merged} docs pull requests merged 20 days ago, measured with impact-after: 14d and the default max-requests: 20 by scheduled runs against the rename world (test/simulator/analytics-impact.ts): ${r.runs} runs, ${r.perRun.join(' + ')} analytics requests; ${r.githubPerPull} docs-repository GitHub requests per measured docs pull request (its files, the docs root, the comment, and the reads that bring the outcomes up to date). A docs pull request that changes no page of the site (terms only: an image) is not measured and spends no analytics request, on purpose (issue 27).`
    )
    print()
    table(
      ['docs pull request', 'measured', 'analytics requests each'],
      r.perPull.map(p => [p.kind, p.pulls, fig(`impact.${slug(p.kind)}.requests`, p.requests)])
    )
    goals.push(...r.goals)
  }
} finally {
  await sim.close()
  // The steps' folders runAction and runInProcess made (test/support/temporary.ts).
  removeTemporaryFolders()
}

/** The figures a regression would show in: deterministic counts exactly, measured ones with slack. */
const WATCHED: Watch[] = [
  ...[
    'agent-action-no-comment',
    'agent-action-with-a-comment',
    'agent-action-fail-fast-no-api-key',
    'visitors-sub-action'
  ].flatMap((p): Watch[] => [
    { key: `startup.${p}.ratio`, name: `start-up × bare Node, ${p}`, better: 'lower', rel: 0.15 },
    { key: `startup.${p}.peak`, name: `start-up peak MiB, ${p}`, better: 'lower', rel: 0.1 }
  ]),
  ...[10_000, 100_000, 250_000, 1_000_000].flatMap((rows): Watch[] => [
    {
      key: `export.${rows}.visitors-sub-action.requests`,
      name: `export requests, ${rows} rows`,
      better: 'lower'
    },
    {
      key: `export.${rows}.visitors-sub-action.peak`,
      name: `export peak MiB, ${rows} rows`,
      better: 'lower',
      rel: 0.1
    },
    {
      key: `export.${rows}.visitors-sub-action.kept`,
      name: `export kept MiB, ${rows} rows`,
      better: 'lower',
      rel: 0.1,
      abs: 2
    }
  ]),
  {
    key: 'limit.first-rows',
    name: 'rows the default export run gets within the limit',
    better: 'higher'
  },
  { key: 'gaps.requests', name: 'docs gaps requests on the big site', better: 'lower' },
  ...[3, 30, 300].map((s): Watch => ({
    key: `waiting.${s}.action-defaults.requests`,
    name: `status requests, ${s} s job`,
    better: 'lower',
    rel: 0.1
  }))
]
if (!values.before && !values.only) goals.push(...figures.regressions(WATCHED))

print('## Goals')
print()
table(
  ['goal', 'figure', 'bar', ''],
  goals.map(g => [g.name, g.figure, g.bar, g.pass ? 'PASS' : '**MISS**'])
)
const missed = goals.filter(g => !g.pass).length
print(missed ? `${missed} of ${goals.length} goals missed.` : `All ${goals.length} goals met.`)

const measured = { node: process.versions.node, date, figures: figures.now }
if (values.before) {
  const source = process.env.BENCH_SOURCE ?? 'this checkout'
  writeFigures(BEFORE_FILE, { ...measured, source })
  console.log(`Wrote ${path.relative(ROOT, BEFORE_FILE)}.`)
} else if (!values.only && missed) {
  // A miss fails the bench, not the tests: the committed results and baseline stay as they were.
  const file = path.join(ROOT, '.tmp', 'bench-results.md')
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, `${out.join('\n').trim()}\n`)
  console.log(`Wrote ${path.relative(ROOT, file)}; bench/results.md is as it was.`)
} else if (!values.only) {
  writeFileSync(path.join(ROOT, 'bench', 'results.md'), `${out.join('\n').trim()}\n`)
  await updatePerformancePage(figures.now, `all ${goals.length} goals met`)
  // The baseline moves only with a run that met every goal, so a regression cannot become it.
  writeFigures(BASELINE_FILE, { ...measured, source: `the run of ${date}` })
}
process.exit(missed ? 1 : 0)

/** Rewrites the table of docs/performance.md and the line naming the run from this run's figures. */
async function updatePerformancePage(f: Record<string, Value>, verdict: string): Promise<void> {
  const file = path.join(ROOT, 'docs', 'performance.md')
  const page = readFileSync(file, 'utf8')
  const v = (key: string): Value => f[key] ?? '?'
  const ms = (key: string): number => Math.round(Number(v(key)))
  const mib = (key: string): number => Math.round(Number(v(key)))
  const docsPrs = (count: Value): string => `${count} docs PR${count === 1 ? '' : 's'}`
  const rows = [
    ['what', 'this action', 'the alternative'],
    [
      'fail fast on a missing input',
      `${v('startup.agent-action-fail-fast-no-api-key.ratio')}× bare Node (${ms('startup.agent-action-fail-fast-no-api-key.ms')} ms)`,
      `\`@actions/core\` alone, failing at once: ${v('startup.actions-core-as-published-alone-fail-fast-reference.ratio')}×`
    ],
    [
      'start-up to the first request',
      `${v('startup.agent-action-no-comment.ratio')}× bare Node (${ms('startup.agent-action-no-comment.ms')} ms), ${v('startup.agent-action-no-comment.request-ratio')}× bare Node making the same request; ${v('startup.agent-action-with-a-comment.ratio')}× with a comment`,
      `bare Node making the same request: ${ms('startup.bare-node-making-the-same-request-node-http.ms')} ms (\`node:http\`), ${ms('startup.bare-node-making-the-same-request-fetch.ms')} ms (\`fetch\`)`
    ],
    [
      'peak memory of a short job',
      `${mib('startup.agent-action-with-a-comment.peak')} MiB`,
      '(goal ≤ 100 MiB)'
    ],
    ['undici copies per bundle', 'exactly 1', '(the toolkit’s own)'],
    [
      'a 3 s job: noticed after / requests',
      `${Number(v('waiting.3.action-defaults.delay')).toFixed(1)} s / ${v('waiting.3.action-defaults.requests')}`,
      `a 10 s \`curl\` loop: ${Number(v('waiting.3.fixed-10-s-loop.delay')).toFixed(1)} s / ${v('waiting.3.fixed-10-s-loop.requests')}`
    ],
    [
      'a 5 min job: noticed after / requests',
      `${Number(v('waiting.300.action-defaults.delay')).toFixed(1)} s / ${v('waiting.300.action-defaults.requests')}`,
      `a 10 s \`curl\` loop: ${Number(v('waiting.300.fixed-10-s-loop.delay')).toFixed(1)} s / ${v('waiting.300.fixed-10-s-loop.requests')}`
    ],
    [
      'export of 100,000 visitor rows (40-character paths)',
      `${n(Number(v('export.100000.visitors-sub-action.requests')))} requests, ${mib('export.100000.visitors-sub-action.peak')} MiB, ${v('export.100000.visitors-sub-action.seconds')} s`,
      `a naive client (page size 50): ${n(Number(v('export.100000.naive-client-page-size-50.requests')))} requests, ${mib('export.100000.naive-client-page-size-50.peak')} MiB`
    ],
    [
      'export of 1,000,000 rows',
      `${mib('export.1000000.visitors-sub-action.peak')} MiB at its peak, ${v('export.1000000.visitors-sub-action.kept')} MiB kept (${v('export.100000.visitors-sub-action.kept')} MiB at 100,000 rows)`,
      `before this version: refused (\`max-requests\` at most 1,000); at 250,000 rows it kept ${figures.was('export.250000.visitors-sub-action.kept')} MiB (now ${v('export.250000.visitors-sub-action.kept')}) and peaked at ${Math.round(Number(figures.was('export.250000.visitors-sub-action.peak')))} MiB`
    ],
    [
      `export within the documented ${ANALYTICS_PER_HOUR} analytics requests an hour`,
      `${n(Number(v('limit.first-rows')))} rows a run (the defaults), then the next from \`next-offset\`: 100,000 rows in ${v('limit.runs')} runs, each row once`,
      `before this version: every default run failed at ${n(50 * 250)} rows and wrote nothing`
    ],
    [
      'docs gaps on a big site (100,000 searches, 10,000 feedback entries, 10,000 turns)',
      `the true top 10 of each signal in ${v('gaps.requests')} requests, ${v('gaps.seconds')} s; \`complete: false\` for the unread tail of search terms, \`top-complete: true\``,
      `before this version: ${figures.was('gaps.requests')} requests, stopped by the budget before the assistant’s top 10 was known`
    ],
    [
      '10 merges, a concurrency group leaving runs 1, 4 and 10',
      `${v('follow.this-action-ledger-concurrency-group-runs-1-4-10.documented')} merges reach the agent, in ${v('follow.this-action-ledger-concurrency-group-runs-1-4-10.writes')} writes (jobs + follow-ups), ${docsPrs(v('follow.this-action-ledger-concurrency-group-runs-1-4-10.docs-prs'))}`,
      `without the ledger: ${v('follow.without-the-ledger-dashboard-false-runs-1-4-10.documented')}; a hand-written workflow: ${docsPrs(v('follow.hand-written-workflow-a-new-job-per-merge-runs-1-4-10.docs-prs'))}`
    ],
    [
      'a 3,000-file pull request with 1 MB patches',
      `${v('follow.memory.3-000-files-1-mb-patches-include-diff-false')} MiB at its peak, ${v('follow.memory.3-000-files-1-mb-patches-include-diff-true')} MiB with \`include-diff\``,
      '(goal ≤ 200 MiB)'
    ]
  ]
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map(r => (r[c] as string).length)))
  const line = (r: string[]): string =>
    `| ${r.map((cell, c) => cell.padEnd(widths[c] as number)).join(' | ')} |`
  const tableText = [
    line(rows[0] as string[]),
    `| ${widths.map(w => '-'.repeat(w)).join(' | ')} |`,
    ...rows.slice(1).map(line)
  ].join('\n')
  const begin = '<!-- bench:table (npm run bench writes it) -->'
  const end = '<!-- bench:end -->'
  const [head, rest] = page.split(begin) as [string, string]
  const tail = rest.slice(rest.indexOf(end))
  const measuredLine = `Measured on Node ${process.versions.node}, ${machine}, ${date} (\`bench/results.md\`: ${verdict}).`
  const written = `${head}${begin}\n\n${tableText}\n\n${measuredLine}\n${tail}`
  // Formatted as `npm run lint` wants it.
  const options = { ...(await prettier.resolveConfig(file)), filepath: file }
  writeFileSync(file, await prettier.format(written, options))
}
