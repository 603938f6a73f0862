/** What the action records in its comment, hidden in an HTML comment, to find the job again. */
export interface Marker {
  job: string
  run: string
  attempt: number
}

const PREFIX = '<!-- mintlify-agent '
const PATTERN = /<!-- mintlify-agent (\{[^<>]*\}) -->/

export function renderMarker(marker: Marker): string {
  return `${PREFIX}${JSON.stringify(marker)} -->`
}

export function parseMarker(body: string | undefined | null): Marker | undefined {
  const match = body ? PATTERN.exec(body) : null
  if (!match) return undefined
  try {
    const value = JSON.parse(match[1] as string) as Partial<Marker>
    if (typeof value.job !== 'string' || !value.job || typeof value.run !== 'string')
      return undefined
    return { job: value.job, run: value.run, attempt: Number(value.attempt) || 1 }
  } catch {
    return undefined
  }
}
