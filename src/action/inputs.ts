import * as core from '@actions/core'
import { realpathSync } from 'node:fs'
import path from 'node:path'
import { InputError } from './errors.js'

export type InputReader = (name: string) => string
export type Masker = (secret: string) => void

export const readInput: InputReader = name => core.getInput(name)

/** Masks a secret in the log from this line on. */
export const maskSecret: Masker = secret => core.setSecret(secret)

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
