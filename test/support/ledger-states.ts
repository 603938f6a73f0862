import { readFileSync } from 'node:fs'
import path from 'node:path'
import { type Ledger, dashboardPlace } from '../../src/records/ledger.js'
import { RecordSigner, commentSafeJson, findRecords, hideRecord } from '../../src/records/record.js'
import { SIM_API_KEY } from '../simulator/server.js'
import { ROOT } from './run-action.js'

const TAG = 'mintlify-agent-ledger'

/**
 * A dashboard body (`page`, then the record) holding `state` as it stands, in whatever format,
 * signed as the action signs it: bound to `issue` of `repository`, or with no issue as states
 * were before they named theirs.
 */
export function signedStateBody(
  state: Record<string, unknown>,
  where: { repository: string; issue?: number; key?: string; page?: string }
): string {
  const json = commentSafeJson(state)
  const signer = new RecordSigner(where.key ?? SIM_API_KEY)
  const signature = signer.sign(dashboardPlace(where.repository, where.issue), json)
  return `${where.page ?? "The docs agent's work."}\n${hideRecord(TAG, signature, json)}`
}

/** The state's JSON as the newest record of `body` holds it, unchecked. */
export const stateIn = (body: string): Record<string, unknown> =>
  JSON.parse((findRecords(body, TAG)[0] as { json: string }).json) as Record<string, unknown>

/** A dashboard an earlier version of the action wrote, as test/fixtures/ledger/ keeps it. */
export interface LedgerFixture {
  about: string
  /** The commit whose code wrote it, and when that commit was made. */
  commit: string
  committedAt: string
  /** The test key it is signed with. */
  apiKey: string
  repository: string
  issue: number
  title: string
  project: string
  /** The results of the runs that wrote it, in order. */
  results: string[]
  body: string
  /** The ledger that commit's own code read from the body. */
  readByItsCode: Ledger
}

export const ledgerFixture = (name: string): LedgerFixture =>
  JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/ledger', name), 'utf8')) as LedgerFixture
