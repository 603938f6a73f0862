// `npm start`: runs the bundled action the way the runner does (dist/, or ACTION_DIST), against the
// embedded API simulator and a fake GitHub on loopback. By default it shows the main story: the
// docs-agent label added to an issue, the job, and the one comment that follows it to the docs pull
// request, printed each time it changes. `--prompt "…"` runs a prompt-only run, `--gaps` the docs-gaps
// sub-action; only `--live` reaches the real service, whatever the environment holds. `--help` says so.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { FakeGitHub, GitHubRequest } from '../test/simulator/fake-github.js'
import type { Simulator } from '../test/simulator/server.js'
import type { RunResult } from '../test/support/run-action.js'
import {
  type LiveConnection,
  type StartOptions,
  USAGE,
  UsageError,
  liveConnection,
  parseStartArgs
} from './start-options.js'

const REPOSITORY = 'acme/docs'
const ISSUE = {
  number: 7,
  title: 'Document the retry options',
  body: 'The client gained `retries` and `backoff` options. Please document them.',
  html_url: `https://github.com/${REPOSITORY}/issues/7`
}
/** The person who adds the label: the fake GitHub gives them write permission, as the gate asks. */
const MAINTAINER = 'maintainer'

function readOptions(): { options: StartOptions; live?: LiveConnection } {
  try {
    const options = parseStartArgs(process.argv.slice(2))
    if (options.help) return { options }
    return { options, live: options.live ? liveConnection(process.env) : undefined }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error
    console.error(`npm start: ${error.message}\n\n${USAGE}`)
    process.exit(2)
  }
}

const { options, live } = readOptions()
if (options.help) {
  console.log(USAGE)
  process.exit(0)
}

// Loaded once the arguments are read: --help and a mistake are answered at once, without the
// simulator's validators and GitHub's GraphQL schema.
const simulator = await import('../test/simulator/server.js')
const fakeGitHub = await import('../test/simulator/fake-github.js')
const { runAction } = await import('../test/support/run-action.js')
const { removeTemporaryFolders } = await import('../test/support/temporary.js')
const { SIM_API_KEY, SIM_PROJECT } = simulator
const sim = live ? undefined : await simulator.Simulator.start({ job: { durationMs: 4000 } })
const gh = options.mode === 'issue' ? await fakeGitHub.FakeGitHub.start() : undefined
const connection: Record<string, string> = live
  ? { 'api-key': live.apiKey, 'project-id': live.projectId, 'api-url': live.apiUrl }
  : { 'api-key': SIM_API_KEY, 'project-id': SIM_PROJECT, 'api-url': (sim as Simulator).url }

console.log(
  live
    ? `The real Mintlify service (--live): ${live.apiUrl}, project ${live.projectId}. This starts a real, paid agent job.`
    : `API simulator listening on ${sim?.url} (nothing leaves this machine; --live for the real service).`
)
if (gh) console.log(`Fake GitHub listening on ${gh.url}, as ${REPOSITORY}.`)
console.log('--- action log ---')

let result: RunResult
try {
  result = await run()
  report(result)
} finally {
  await Promise.all([sim?.close(), gh?.close()])
  // The step's folder (event, outputs, summary, the gaps report): all of it was shown above.
  removeTemporaryFolders()
}
process.exitCode = result.code ?? 1

/** How long the step waits: a real job takes minutes, the simulator's seconds. */
function timeout(): string {
  return live ? '30m' : '2m'
}

function run(): Promise<RunResult> {
  // The runner swallows ::add-mask:: commands; show them as it would, without the value.
  const onOutput = (text: string): void => {
    process.stdout.write(text.replace(/^::add-mask::.*$/gm, '::add-mask::***'))
  }
  if (options.mode === 'gaps')
    return runAction({
      entry: 'dist/gaps/index.js',
      inputs: {
        ...connection,
        'date-from': '-7d',
        'date-to': 'today',
        'output-file': 'mintlify-gaps.json'
      },
      onOutput
    })
  if (options.mode === 'prompt')
    return runAction({
      inputs: { ...connection, prompt: options.prompt, 'poll-interval': '10s', timeout: timeout() },
      onOutput
    })
  return issueRun(gh as FakeGitHub, onOutput)
}

/** The label → job → comment story: the issue labelled docs-agent, each version of the comment shown. */
function issueRun(github: FakeGitHub, onOutput: (text: string) => void): Promise<RunResult> {
  github.permissions.set(MAINTAINER, { permission: 'write', role_name: 'write' })
  let version = 0
  github.onRequest((request: GitHubRequest) => {
    const body = (request.body as { body?: unknown } | undefined)?.body
    const comment =
      (request.method === 'POST' && request.path.endsWith(`/issues/${ISSUE.number}/comments`)) ||
      (request.method === 'PATCH' && /\/issues\/comments\/\d+$/.test(request.path))
    if (!comment || typeof body !== 'string') return
    version++
    const what = version === 1 ? 'posted' : `edited (version ${version})`
    console.log(`\n=== the comment on issue #${ISSUE.number}, ${what} ===\n${shown(body)}\n===\n`)
  })
  return runAction({
    inputs: {
      ...connection,
      'github-token': 'ghs_local_fake_token',
      'poll-interval': '1s',
      timeout: timeout()
    },
    event: {
      action: 'labeled',
      label: { name: 'docs-agent' },
      issue: ISSUE,
      repository: { full_name: REPOSITORY },
      sender: { login: MAINTAINER, type: 'User' }
    },
    env: {
      GITHUB_EVENT_NAME: 'issues',
      GITHUB_REPOSITORY: REPOSITORY,
      GITHUB_RUN_ID: '1',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_API_URL: github.url
    },
    onOutput
  })
}

/** A comment as a reader sees it: the signed record it carries is an HTML comment GitHub hides. */
function shown(body: string): string {
  return body.replace(/<!--[\s\S]*?-->\n?/g, '').trim()
}

function report(end: RunResult): void {
  console.log('--- outputs ---')
  for (const [name, value] of Object.entries(end.outputs)) console.log(`${name}: ${value}`)
  console.log('--- job summary ---')
  console.log(end.summary.trim())
  if (options.mode === 'gaps' && end.outputs.file) {
    console.log(`--- ${end.outputs.file} ---`)
    console.log(readFileSync(path.join(end.workspace, end.outputs.file), 'utf8').trim())
  }
  const final = gh?.commentsOn(ISSUE.number).at(-1)
  if (gh)
    console.log(
      final
        ? `--- the comment on issue #${ISSUE.number}, as the run left it ---\n${shown(final.body)}`
        : `--- no comment on issue #${ISSUE.number} ---`
    )
  console.log('---')
  const seen = [
    ...(sim ? [`the simulator saw ${sim.exchanges.length} requests`] : []),
    ...(gh ? [`the fake GitHub ${gh.requests.length}`] : [])
  ]
  console.log(
    `Exit code ${end.code} after ${(end.durationMs / 1000).toFixed(1)}s${seen.length ? `; ${seen.join(', ')}` : ''}.`
  )
}
