// `npm run screenshots`: the README's pictures, made from what the bundled actions really write.
// Runs dist/index.js on an issue labelled `docs-agent` (a job that opens a pull request, then one
// that fails), on three merged pull requests (the docs agent dashboard), on merges and ticks with
// `approval: dashboard` (the dashboard in each state of an approval), and dist/visitors/index.js,
// against the API simulator and the fake GitHub on loopback; takes the final issue comments, the
// dashboard issue, the job summaries and a docs pull request's reader impact (a scheduled run with
// impact-after) as the action wrote them, renders the
// Markdown to HTML styled like GitHub, and screenshots it with headless Chromium into docs/*.png.
// Needs Debian's Chromium (`apt-get install -y chromium fonts-noto-color-emoji`); not part of
// `npm test`. CHROMIUM=/path/to/chromium picks another browser.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { marked } from 'marked'
import { FakeGitHub } from '../test/simulator/fake-github.js'
import { SIM_API_KEY, SIM_PROJECT, Simulator } from '../test/simulator/server.js'
import { APP, CodeChangeServers, DOCS_TOKEN } from '../test/support/code-change-runs.js'
import {
  RENAME_DOCS_FILES,
  RENAME_DOCS_TREE,
  RENAME_TITLE,
  renameWorld as impactRenameWorld
} from '../test/simulator/analytics-impact.js'
import { measuringStep } from '../test/support/impact-runs.js'
import { ROOT, type RunOptions, runAction as runBundle } from '../test/support/run-action.js'
import { datedGaps, renameWorld } from '../test/simulator/analytics-dated.js'
import { dashboardWithLedger, renameRepository } from '../test/support/gaps-causes-world.js'

/**
 * The bundle on the real clock: a follow-up is confirmed by polling, so a run takes longer than
 * the tests' time limit for a child, which their virtual clocks never reach.
 */
const runAction = (options: RunOptions) => runBundle({ limitMs: 300_000, ...options })

const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium'
const OUT = path.join(ROOT, 'docs')
/** CSS pixels of the picture's width; the PNG has 1.5 times as many, sharp on most screens and small. */
const WIDTH = 820
const SCALE = 1.5
const MERMAID = pathToFileURL(path.join(ROOT, 'node_modules/mermaid/dist/mermaid.min.js')).href

function preflight(): void {
  if (!existsSync(CHROMIUM)) {
    fail(
      `Chromium was not found at ${CHROMIUM}. Install it with 'apt-get update && apt-get install -y chromium fonts-noto-color-emoji' (Debian), or set CHROMIUM to its path.`
    )
  }
  for (const entry of ['dist/index.js', 'dist/visitors/index.js', 'dist/gaps/index.js']) {
    if (!existsSync(path.join(ROOT, entry)))
      fail(`${entry} is missing: run 'npm run bundle' first.`)
  }
}

function fail(message: string): never {
  console.error(`screenshots: ${message}`)
  process.exit(1)
}

const issue = {
  number: 7,
  title: 'Document the retry options',
  body: 'The client gained `retries` and `backoff` options. Please document them.',
  html_url: 'https://github.com/acme/docs/issues/7'
}

/** The agent action on an issue labelled `docs-agent`: its last comment and its job summary. */
async function issueRun(
  sim: Simulator,
  gh: FakeGitHub,
  runId: number
): Promise<{ comment: string; summary: string; result: string }> {
  gh.reset()
  gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
  const run = await runAction({
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': SIM_PROJECT,
      'api-url': sim.url,
      'github-token': 'ghs_screenshot_token',
      'poll-interval': '1s'
    },
    event: {
      action: 'labeled',
      label: { name: 'docs-agent' },
      issue,
      sender: { login: 'maintainer', type: 'User' }
    },
    env: {
      GITHUB_EVENT_NAME: 'issues',
      GITHUB_REPOSITORY: 'acme/docs',
      GITHUB_RUN_ID: String(runId),
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: gh.url
    }
  })
  const comment = gh.commentsOn(issue.number).at(-1)?.body
  if (!comment) fail(`the run left no comment on the issue. Its log:\n${run.log}`)
  return { comment, summary: run.summary, result: run.outputs.result ?? '' }
}

/**
 * The dashboard after three merges into acme/app: the first starts a job whose docs pull request
 * opens; the next run catches up on two more, one of them only a README change left out by
 * `paths-ignore`, and sends the other to the open docs pull request as a follow-up.
 */
async function dashboardRuns(): Promise<{ title: string; number: number; body: string }> {
  const servers = await CodeChangeServers.start()
  const { gh } = servers
  try {
    const repository = { full_name: APP, default_branch: 'main' }
    const inputs = { 'paths-ignore': '**/*.md', 'max-jobs': '5/day' }
    const merge = (number: number, title: string, filename: string) => {
      const pull = gh.addPull(APP, { number, title, files: [{ filename, additions: 12 }] })
      gh.mergePull(APP, pull)
      return servers.merged(pull, 'closed', repository)
    }
    gh.commitTo(APP, { message: 'Initial commit' })
    const first = await runAction(
      servers.step({ event: merge(101, 'Add retry options', 'src/retry.ts'), inputs })
    )
    if (first.outputs.result !== 'pr-opened')
      fail(`the first change run ended '${first.outputs.result}':\n${first.log}`)
    const docsPr = first.outputs.prLink ?? ''
    gh.addPull('acme/docs', {
      number: Number(docsPr.split('/').pop()),
      state: 'open',
      user: { login: 'mintlify[bot]', type: 'Bot' }
    })
    merge(102, 'Add a backoff option', 'src/backoff.ts')
    servers.runId++
    const second = await runAction(
      servers.step({ event: merge(103, 'Fix a typo in the README', 'README.md'), inputs })
    )
    if (second.outputs.decision !== 'follow-up')
      fail(`the second change run decided '${second.outputs.decision}':\n${second.log}`)
    const dashboard = [...gh.issues.values()].find(i => i.labels.includes('docs-agent-dashboard'))
    if (!dashboard) fail('the change runs left no dashboard issue.')
    return dashboard
  } finally {
    await servers.close()
  }
}

/**
 * `approval: dashboard` with `max-jobs: 1/day`: two merges wait for approval in one batch; a reader's
 * tick is undone with a reply; a writer's tick starts one job; a third merge waits, is approved, and
 * waits on for the budget. The dashboard in each state, and the reply.
 */
async function approvalRuns(): Promise<{
  title: string
  number: number
  waiting: string
  started: string
  approvedWaiting: string
  refusal: string
}> {
  const servers = await CodeChangeServers.start()
  const { gh } = servers
  try {
    gh.permissions.set('maintainer', { permission: 'write', role_name: 'write' })
    gh.permissions.set('visitor', { permission: 'read', role_name: 'read' })
    const repository = { full_name: APP, default_branch: 'main' }
    const inputs = { approval: 'dashboard', 'max-jobs': '1/day' }
    const dashboard = () => {
      const found = [...gh.issues.values()].find(i => i.labels.includes('docs-agent-dashboard'))
      if (!found) fail('the change runs left no dashboard issue.')
      return found
    }
    const step = async (r: Parameters<CodeChangeServers['step']>[0], expected: string) => {
      servers.runId++
      const run = await runAction(servers.step({ ...r, inputs }))
      if (run.outputs.result !== expected)
        fail(`a run ended '${run.outputs.result}', not '${expected}':\n${run.log}`)
    }
    const merge = (number: number, title: string, filename: string) => {
      const pull = gh.addPull(APP, { number, title, files: [{ filename, additions: 12 }] })
      gh.mergePull(APP, pull)
      return step({ event: servers.merged(pull, 'closed', repository) }, 'waiting')
    }
    const tick = (login: string, expected: string) => {
      const issue = dashboard()
      issue.body = issue.body.replace(/^- \[ \] Start the agent/m, '- [x] Start the agent')
      return step(
        {
          eventName: 'issues',
          event: {
            action: 'edited',
            issue: gh.issueView(issue),
            changes: { body: { from: '' } },
            repository,
            sender: { login, type: 'User' }
          }
        },
        expected
      )
    }
    gh.commitTo(APP, { message: 'Initial commit' })
    await merge(101, 'Add retry options', 'src/retry.ts')
    await merge(102, 'Add a backoff option', 'src/backoff.ts')
    const waiting = dashboard().body
    await tick('visitor', 'skipped')
    const refusal = gh.commentsOn(dashboard().number).at(-1)?.body
    if (!refusal) fail("the reader's tick got no reply.")
    await tick('maintainer', 'pr-opened')
    const started = dashboard().body
    await merge(103, 'Add a timeout option', 'src/timeout.ts')
    await tick('maintainer', 'waiting')
    const { title, number } = dashboard()
    return { title, number, waiting, started, approvedWaiting: dashboard().body, refusal }
  } finally {
    await servers.close()
  }
}

/**
 * Reader impact: a merge renamed a CLI flag and its docs pull request merged 20 days ago; a
 * scheduled run with `impact-after: 14d` compares the readers of the rename world (searches for the
 * new name found nothing until the docs merged) and comments on the docs pull request.
 */
async function impactRun(): Promise<string> {
  const servers = await CodeChangeServers.start()
  const { gh, sim } = servers
  try {
    const now = Date.now()
    gh.commitTo(APP, { message: 'Initial commit' })
    const code = servers.mergeNext({ title: RENAME_TITLE })
    const first = await runAction(
      servers.step({ event: servers.mergedEvent(code), inputs: { 'docs-token': DOCS_TOKEN } })
    )
    if (first.outputs.result !== 'pr-opened')
      fail(`the change run ended '${first.outputs.result}':\n${first.log}`)
    const number = Number((first.outputs.prLink ?? '').split('/').pop())
    gh.addPull('acme/docs', {
      number,
      title: 'Document the --watch flag',
      state: 'closed',
      merged: true,
      user: { login: 'mintlify[bot]', type: 'Bot' },
      createdAt: now - 25 * DAY,
      mergedAt: now - 20 * DAY,
      closedAt: now - 20 * DAY,
      files: RENAME_DOCS_FILES
    })
    gh.trees.set('acme/docs', RENAME_DOCS_TREE)
    sim.answerByRange(impactRenameWorld(now - 30 * DAY, now - 20 * DAY).answer)
    const measured = await runAction(measuringStep(servers))
    const comment = gh.commentsOn(number, 'acme/docs').at(-1)
    if (!comment) fail(`the scheduled run posted no reader impact:\n${measured.log}`)
    return comment.body
  } finally {
    await servers.close()
  }
}

const DAY = 86_400_000

/** The visitors sub-action over the simulator's 42 pages, top 8 (a shorter picture): its job summary. */
async function visitorsRun(sim: Simulator): Promise<string> {
  const run = await runAction({
    entry: 'dist/visitors/index.js',
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': SIM_PROJECT,
      'api-url': sim.url,
      'date-from': '2026-11-16',
      'date-to': '2026-11-23',
      'output-file': 'visitors.csv',
      top: '8'
    }
  })
  if (run.code !== 0) fail(`the visitors export failed. Its log:\n${run.log}`)
  return run.summary
}

/**
 * The gaps sub-action with changes-since in the rename world (a merge renamed `--follow` to
 * `--watch`; readers searched for `--watch` in vain until the docs caught up): its job summary.
 */
async function gapsCausesRun(sim: Simulator, gh: FakeGitHub): Promise<string> {
  gh.reset()
  sim.setGaps(datedGaps(renameWorld()))
  const repo = renameRepository(gh)
  dashboardWithLedger(gh, [
    { sha: repo.rename.mergeCommit ?? '', pr: 123, title: repo.rename.title ?? '' },
    { sha: repo.push.sha, title: 'Rename the config key' }
  ])
  const run = await runAction({
    entry: 'dist/gaps/index.js',
    inputs: {
      'api-key': SIM_API_KEY,
      'project-id': SIM_PROJECT,
      'api-url': sim.url,
      'github-token': 'ghs_screenshot_token',
      'date-from': '2026-11-01',
      'date-to': '2026-11-18',
      'changes-since': '2026-10-01',
      top: '5'
    },
    env: { GITHUB_REPOSITORY: APP, GITHUB_API_URL: gh.url }
  })
  if (run.code !== 0) fail(`the gaps run failed. Its log:\n${run.log}`)
  return run.summary
}

const CSS = `
  body { margin: 0; background: #fff; color: #1f2328; font-size: 14px; line-height: 1.5;
    font-family: -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans", Helvetica, Arial, "Liberation Sans", sans-serif, "Noto Color Emoji"; }
  #shot { width: ${WIDTH - 32}px; padding: 16px; }
  .timeline { display: flex; gap: 12px; align-items: flex-start; }
  .avatar { flex: none; width: 40px; height: 40px; border-radius: 50%; background: #2088ff;
    color: #fff; font-weight: 600; display: flex; align-items: center; justify-content: center; }
  .box { flex: 1; min-width: 0; border: 1px solid #d1d9e0; border-radius: 6px; }
  .box-header { background: #f6f8fa; border-bottom: 1px solid #d1d9e0; border-radius: 6px 6px 0 0;
    padding: 8px 16px; color: #59636e; }
  .box-header b { color: #1f2328; }
  .label { border: 1px solid #d1d9e0; border-radius: 2em; padding: 0 7px; font-size: 12px; margin: 0 4px; }
  .issue-title { font-size: 26px; font-weight: 400; margin: 0 0 16px; }
  .issue-title .number { color: #59636e; font-weight: 300; }
  .markdown-body { padding: 16px; overflow-wrap: anywhere; }
  .markdown-body > :last-child { margin-bottom: 0; }
  .markdown-body p, .markdown-body table, .markdown-body blockquote, .markdown-body pre { margin: 0 0 16px; }
  .markdown-body h2 { font-size: 1.5em; font-weight: 600; margin: 0 0 16px; padding-bottom: .3em;
    border-bottom: 1px solid #d1d9e0b3; }
  .markdown-body h3 { font-size: 1.25em; font-weight: 600; margin: 24px 0 16px; }
  .markdown-body a { color: #0969da; text-decoration: underline; text-underline-offset: .2rem; }
  .markdown-body code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
    font-size: 85%; padding: .2em .4em; border-radius: 6px; background: #818b981f; }
  .markdown-body table { border-collapse: collapse; display: block; width: max-content; max-width: 100%; }
  .markdown-body th, .markdown-body td { border: 1px solid #d1d9e0; padding: 6px 13px; }
  .markdown-body th { font-weight: 600; }
  .markdown-body tr:nth-child(2n) { background: #f6f8fa; }
  .markdown-body blockquote { color: #59636e; border-left: .25em solid #d1d9e0; padding: 0 1em; }
  .markdown-body pre.mermaid { background: none; text-align: center; }
`

/** GitHub's renderer for issue comments and job summaries, near enough: GFM, raw HTML kept. */
function render(markdown: string): string {
  const html = marked.parse(markdown, { gfm: true, async: false })
  // GitHub draws ```mermaid blocks as diagrams; mermaid.js looks for <pre class="mermaid">.
  return html.replace(
    /<pre><code class="language-mermaid">([\s\S]*?)<\/code><\/pre>/g,
    '<pre class="mermaid">$1</pre>'
  )
}

function page(inner: string, mermaid: boolean): string {
  // Once drawn (Mermaid renders asynchronously), the page records its height for the second pass.
  const measure = `document.body.dataset.height = Math.ceil(document.getElementById('shot').getBoundingClientRect().bottom)`
  const scripts = mermaid
    ? `<script src="${MERMAID}"></script><script>mermaid.initialize({ startOnLoad: false, theme: 'default' }); mermaid.run().then(() => { ${measure} })</script>`
    : `<script>${measure}</script>`
  return `<!doctype html><html><head><meta charset="utf-8"><style>${CSS}</style></head><body><div id="shot">${inner}</div>${scripts}</body></html>`
}

/** The GitHub Actions bot's avatar, near enough: a white play sign on blue. */
const PLAY =
  '<svg width="16" height="16" viewBox="0 0 16 16"><path d="M4 2.5v11l9-5.5z" fill="#fff"/></svg>'

const commentPage = (markdown: string): string =>
  page(
    `<div class="timeline"><div class="avatar">${PLAY}</div><div class="box"><div class="box-header"><b>github-actions</b><span class="label">bot</span> commented now</div><div class="markdown-body">${render(markdown)}</div></div></div>`,
    false
  )

const issuePage = (title: string, number: number, markdown: string): string =>
  page(
    `<h2 class="issue-title">${title.replace(/[&<>]/g, c => `&#${c.charCodeAt(0)};`)} <span class="number">#${number}</span></h2><div class="timeline"><div class="avatar">${PLAY}</div><div class="box"><div class="box-header"><b>github-actions</b><span class="label">bot</span> opened this issue</div><div class="markdown-body">${render(markdown)}</div></div></div>`,
    false
  )

const summaryPage = (job: string, markdown: string): string =>
  page(
    `<div class="box"><div class="box-header"><b>${job} summary</b></div><div class="markdown-body">${render(markdown)}</div></div>`,
    markdown.includes('```mermaid')
  )

function chromium(args: string[]): string {
  const run = spawnSync(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--allow-file-access-from-files',
      `--force-device-scale-factor=${SCALE}`,
      '--virtual-time-budget=10000',
      ...args
    ],
    { encoding: 'utf8', timeout: 60_000 }
  )
  if (run.status !== 0)
    fail(`Chromium failed (${run.error?.message ?? run.status}):\n${run.stderr}`)
  return run.stdout
}

/** Two passes: the first measures the page, the second shoots exactly that height. */
function shoot(html: string, name: string, dir: string): void {
  const file = path.join(dir, `${name}.html`)
  writeFileSync(file, html)
  const url = pathToFileURL(file).href
  const dom = chromium([`--window-size=${WIDTH},2000`, '--dump-dom', url])
  const height = Number(/data-height="(\d+)"/.exec(dom)?.[1])
  if (!height) fail(`${name}: the page did not finish drawing in Chromium.`)
  const png = path.join(OUT, `${name}.png`)
  chromium([`--window-size=${WIDTH},${height + 16}`, `--screenshot=${png}`, url])
  const size = `${Math.round(WIDTH * SCALE)}×${Math.round((height + 16) * SCALE)}`
  console.log(`docs/${name}.png: ${size}, ${Math.round(statSync(png).size / 1024)} KB`)
}

preflight()
mkdirSync(OUT, { recursive: true })
const dir = mkdtempSync(path.join(tmpdir(), 'screenshots-'))
const sim = await Simulator.start({ job: { durationMs: 1500 } })
const gh = await FakeGitHub.start()
try {
  const opened = await issueRun(sim, gh, 9001)
  if (opened.result !== 'pr-opened') fail(`expected a pull request, got '${opened.result}'`)
  sim.planNext({ finalStatus: 'failed' })
  const failed = await issueRun(sim, gh, 9002)
  if (failed.result !== 'failed') fail(`expected a failed job, got '${failed.result}'`)
  const visitors = await visitorsRun(sim)
  const dashboard = await dashboardRuns()
  const impact = await impactRun()
  shoot(commentPage(opened.comment), 'comment', dir)
  shoot(summaryPage('agent', opened.summary), 'summary', dir)
  shoot(commentPage(failed.comment), 'comment-failed', dir)
  shoot(summaryPage('visitors', visitors), 'visitors', dir)
  shoot(issuePage(dashboard.title, dashboard.number, dashboard.body), 'dashboard', dir)
  const approval = await approvalRuns()
  const approvalPage = (body: string) => issuePage(approval.title, approval.number, body)
  shoot(approvalPage(approval.waiting), 'approval-waiting', dir)
  shoot(commentPage(approval.refusal), 'approval-refused', dir)
  shoot(approvalPage(approval.started), 'approval-started', dir)
  shoot(approvalPage(approval.approvedWaiting), 'approval-approved-waiting', dir)
  shoot(summaryPage('docs gaps', await gapsCausesRun(sim, gh)), 'gaps-causes', dir)
  shoot(commentPage(impact), 'impact-comment', dir)
} finally {
  await sim.close()
  await gh.close()
}
