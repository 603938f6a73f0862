import { expect } from 'vitest'
import { type Marker, Markers } from '../../src/agent/comment/marker.js'
import { SIM_API_KEY } from '../simulator/server.js'

/** The action's markers in `repository`, signed and read with the simulator's key, as the runs do. */
export const simMarkers = (repository = 'acme/docs', step?: string): Markers =>
  new Markers(SIM_API_KEY, repository, step)

/** The marker the action left in `body` on `issue`, read as the action reads it (signed, in place). */
export const markerIn = (
  body: string | undefined,
  issue: number,
  repository = 'acme/docs'
): Marker | undefined => simMarkers(repository).read(body, issue)

/** Any step's identity (16 hex digits): what a marker written by a run holds in `step`. */
export const ANY_STEP = expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string
