import * as core from '@actions/core'
import { readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { parseId } from './api-url.js'
import { durationInput } from './duration.js'
import {
  type Connection,
  type InputReader,
  type Masker,
  parseBoolean,
  readConnection,
  readInput
} from './input-common.js'
import { InputError } from './input-error.js'
import { Defaults, Input } from './names.js'
import { FAIL_ON_WORDS, type FailOnWord } from './outcome.js'

/** Everything the agent action needs, validated before the first request. */
export interface Settings extends Connection {
  /** The prompt to send: for a new job, or as a follow-up when `jobId` is set. */
  prompt?: string
  /** An existing job to follow up on or wait for. */
  jobId?: string
  wait: boolean
  timeoutMs: number
  pollIntervalMs: number
  failOn: ReadonlySet<FailOnWord>
}

/** Prompt files are meant to be short instructions; a huge one is a mistake (a wrong path). */
const MAX_PROMPT_FILE_BYTES = 256 * 1024
const MAX_TIMEOUT_MS = 72 * 3_600_000

/** Reads and validates the inputs. The key is masked before anything else can print it. */
export function readSettings(
  get: InputReader = readInput,
  env: NodeJS.ProcessEnv = process.env,
  mask: Masker = core.setSecret
): Settings {
  const { apiKey, projectId, apiUrl } = readConnection(get, mask)
  const rawJob = get(Input.JobId)
  const jobId = rawJob.trim() ? parseId(Input.JobId, rawJob) : undefined
  const prompt = readPrompt(get, env.GITHUB_WORKSPACE ?? process.cwd())
  if (prompt === undefined && jobId === undefined) {
    throw new InputError(
      `Give the agent an instruction: set '${Input.Prompt}' or '${Input.PromptFile}' (or '${Input.JobId}' to wait for an existing job).`
    )
  }
  const wait = parseBoolean(Input.Wait, withDefault(get, Input.Wait))
  const timeoutMs = durationInput(
    Input.Timeout,
    withDefault(get, Input.Timeout),
    1000,
    MAX_TIMEOUT_MS
  )
  const pollIntervalMs = durationInput(
    Input.PollInterval,
    withDefault(get, Input.PollInterval),
    1000,
    3_600_000
  )
  const failOn = parseFailOn(withDefault(get, Input.FailOn))
  return { apiKey, projectId, prompt, jobId, apiUrl, wait, timeoutMs, pollIntervalMs, failOn }
}

function withDefault(get: InputReader, name: keyof typeof Defaults): string {
  return get(name).trim() || Defaults[name]
}

function readPrompt(get: InputReader, workspace: string): string | undefined {
  const inline = get(Input.Prompt)
  const file = get(Input.PromptFile).trim()
  if (inline.trim() && file) {
    throw new InputError(`Set only one of '${Input.Prompt}' and '${Input.PromptFile}', not both.`)
  }
  if (file) return readPromptFile(file, workspace)
  if (inline === '') return undefined
  if (!inline.trim()) {
    throw new InputError(`Input '${Input.Prompt}' is blank: write an instruction for the agent.`)
  }
  return inline.trim()
}

function readPromptFile(file: string, workspace: string): string {
  const full = path.resolve(workspace, file)
  let size: number
  try {
    const stat = statSync(full)
    if (!stat.isFile())
      throw new InputError(`Input '${Input.PromptFile}' must name a file; '${file}' is not one.`)
    size = stat.size
  } catch (error) {
    if (error instanceof InputError) throw error
    throw new InputError(
      `Input '${Input.PromptFile}': no file at '${file}' (looked in ${full}). Paths are relative to the workspace; did the workflow run actions/checkout first?`
    )
  }
  if (size > MAX_PROMPT_FILE_BYTES) {
    throw new InputError(
      `Input '${Input.PromptFile}': '${file}' is ${size} bytes; a prompt file may hold at most ${MAX_PROMPT_FILE_BYTES} bytes.`
    )
  }
  const text = readFileSync(full, 'utf8').trim()
  if (!text)
    throw new InputError(
      `Input '${Input.PromptFile}': '${file}' is empty; write the instruction in it.`
    )
  return text
}

function parseFailOn(raw: string): ReadonlySet<FailOnWord> {
  const words = raw
    .split(',')
    .map(w => w.trim().toLowerCase())
    .filter(Boolean)
  if (words.length === 1 && words[0] === 'none') return new Set()
  const result = new Set<FailOnWord>()
  for (const word of words) {
    if (!(FAIL_ON_WORDS as readonly string[]).includes(word)) {
      throw new InputError(
        `Input '${Input.FailOn}' accepts a comma list of ${FAIL_ON_WORDS.join(', ')}, or 'none'; '${word}' is not one of them.`
      )
    }
    result.add(word as FailOnWord)
  }
  return result
}
