import * as core from '@actions/core'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { parseApiUrl, parseId } from './api-url.js'
import { proxyFor } from './api/proxy.js'
import { InputError } from './input-error.js'
import { CommonInput, DEFAULT_API_URL } from './names.js'

export type InputReader = (name: string) => string
export type Masker = (secret: string) => void

export const readInput: InputReader = name => core.getInput(name)

/** Where and as whom to call the service; shared by both actions. */
export interface Connection {
  /** Admin API key; already masked in the log. */
  apiKey: string
  projectId: string
  apiUrl: URL
}

/** Reads key, project and URL. The key is masked before anything else can print it. */
export function readConnection(
  get: InputReader,
  mask: Masker,
  env: NodeJS.ProcessEnv = process.env
): Connection {
  const apiKey = get(CommonInput.ApiKey).trim()
  if (apiKey) mask(apiKey)
  if (!apiKey) {
    throw new InputError(
      `Input '${CommonInput.ApiKey}' is required: pass an admin API key from a secret, e.g. api-key: \${{ secrets.MINTLIFY_API_KEY }}.`
    )
  }
  if (/\s/.test(apiKey)) {
    throw new InputError(
      `Input '${CommonInput.ApiKey}' must not contain spaces or line breaks; check the secret's value.`
    )
  }
  const rawProject = get(CommonInput.ProjectId)
  if (!rawProject.trim()) {
    throw new InputError(
      `Input '${CommonInput.ProjectId}' is required: copy the project ID from the API keys page of the Mintlify dashboard.`
    )
  }
  const projectId = parseId(CommonInput.ProjectId, rawProject)
  const apiUrl = parseApiUrl(CommonInput.ApiUrl, get(CommonInput.ApiUrl).trim() || DEFAULT_API_URL)
  try {
    // A broken proxy setting is found now, not as a network error retried until the time-out.
    proxyFor(apiUrl, env)
  } catch (error) {
    throw new InputError((error as Error).message)
  }
  return { apiKey, projectId, apiUrl }
}

export function parseBoolean(name: string, raw: string): boolean {
  const value = raw.trim().toLowerCase()
  if (value === 'true') return true
  if (value === 'false') return false
  throw new InputError(`Input '${name}' must be 'true' or 'false'; got '${raw}'.`)
}

export function parseInteger(name: string, raw: string, min: number, max: number): number {
  const value = raw.trim()
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new InputError(
      `Input '${name}' must be a whole number from ${min} to ${max}; got '${raw}'.`
    )
  }
  return Number(value)
}

export function parseChoice<T extends string>(name: string, raw: string, choices: readonly T[]): T {
  const value = raw.trim().toLowerCase()
  if (!(choices as readonly string[]).includes(value)) {
    throw new InputError(`Input '${name}' must be one of ${choices.join(', ')}; got '${raw}'.`)
  }
  return value as T
}

/**
 * Resolves a path the action will write, relative to the workspace, and refuses one that leaves it
 * (through `..`, an absolute path, or a symlinked folder).
 */
export function resolveInWorkspace(name: string, file: string, workspace: string): string {
  const root = realpathSync(workspace)
  const full = path.resolve(root, file)
  const inside = (p: string): boolean => {
    const rel = path.relative(root, p)
    return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel)
  }
  if (!inside(full)) {
    throw new InputError(
      `Input '${name}' must be a file path inside the workspace; '${file}' is outside it.`
    )
  }
  // The deepest folder that exists decides where the file really lands.
  let dir = path.dirname(full)
  for (;;) {
    try {
      const real = realpathSync(dir)
      if (real !== root && !inside(real)) {
        throw new InputError(
          `Input '${name}': '${file}' leads outside the workspace through a symbolic link.`
        )
      }
      break
    } catch (error) {
      if (error instanceof InputError) throw error
      dir = path.dirname(dir)
    }
  }
  return full
}
