import type { Clock } from '../runner/clock.js'
import { type Logger } from '../runner/logger.js'
import { CancelledError } from '../runner/errors.js'
import { formatDuration } from '../runner/duration.js'
import { counted } from '../runner/text.js'
import { RequestCap } from '../mintlify/request-cap.js'
import type { ReadLimits } from '../mintlify/analytics-gaps.js'
import type { ApiClient } from '../mintlify/client.js'
import { ApiError, RequestCapReachedError, RateLimitError } from '../mintlify/errors.js'
import { AssistantCollector } from './assistant.js'
import { FeedbackCollector } from './feedback.js'
import type { Collector, GapsReport, ReadContext, Sections } from './report.js'
import { SearchesCollector } from './searches.js'
import type { GapsSettings, Signal } from './settings.js'

const COLLECTORS: Record<Signal, new (ctx: ReadContext) => Collector> = {
  searches: SearchesCollector,
  feedback: FeedbackCollector,
  assistant: AssistantCollector
}

/**
 * Reads the chosen signals and builds the report. The collectors take turns, one request each, so a
 * request cap too small for everything is shared out rather than spent on the first signal. Reading stops
 * when every collector is done, the request cap is reached, the time is up, or the service stays unavailable
 * past the time limit; then the report says what was left unread. An answer that breaks the API
 * document, a refused key or an unknown project fails the step instead.
 */
export async function collectGaps(
  client: ApiClient,
  settings: GapsSettings,
  {
    log,
    clock,
    limits = readLimits(settings, clock),
    asked
  }: { log: Logger; clock: Clock; limits?: ReadLimits; asked?: ReadContext['asked'] }
): Promise<GapsReport> {
  const now = (): number => clock.now()
  const { deadline, cap } = limits
  const ctx: ReadContext = {
    client,
    projectId: settings.projectId,
    range: { dateFrom: settings.dateFrom?.text, dateTo: settings.dateTo?.text },
    limits: { deadline, cap },
    top: settings.top,
    minHits: settings.minHits,
    warn: message => log.warning(message),
    info: message => log.info(message),
    asked
  }
  const collectors = settings.signals.map(signal => new COLLECTORS[signal](ctx))
  const requests = new Map<Collector, number>(collectors.map(c => [c, 0]))
  const answers = new Map<Collector, number>(collectors.map(c => [c, 0]))
  let answered = 0
  let stopped: string | undefined
  rounds: for (;;) {
    const active = collectors.filter(c => !c.done)
    if (active.length === 0) break
    for (const collector of active) {
      if (cap.left <= 0) {
        stopped = `'max-requests' (${settings.maxRequests}) was reached`
        break rounds
      }
      if (now() >= deadline) {
        stopped = `the time limit ran out (timeout: ${formatDuration(settings.timeoutMs)})`
        break rounds
      }
      const before = cap.used
      try {
        await collector.step()
        answered++
        answers.set(collector, (answers.get(collector) ?? 0) + 1)
        log.debug(`Read ${collector.signal} (${cap.used} requests so far).`)
      } catch (error) {
        // With under a second left nothing more could be read anyway: the time is up.
        stopped = whyStopped(error, settings, deadline - now() < 1000)
        if (stopped === undefined) throw error
        // With nothing read at all there is no report to give: say what went wrong instead.
        if (answered === 0) {
          if (error instanceof RateLimitError) throw error
          throw new ApiError(`Nothing could be read: ${stopped}.`, undefined, true)
        }
        break rounds
      } finally {
        requests.set(collector, (requests.get(collector) ?? 0) + cap.used - before)
      }
    }
  }
  const sections: Sections = { searches: null, feedback: null, assistant: null }
  for (const collector of collectors) {
    const unread = collector.done
      ? null
      : unreadPart(answers.get(collector), requests.get(collector), stopped)
    Object.assign(sections, {
      [collector.signal]: collector.section(requests.get(collector) ?? 0, unread)
    })
  }
  return {
    dateFrom: ctx.range.dateFrom ?? null,
    dateTo: ctx.range.dateTo ?? null,
    // A date for readers: the wall clock, not the monotonic one the deadline runs on.
    generatedAt: new Date(clock.wallNow()).toISOString(),
    complete: Object.values(sections).every(section => section === null || section.complete),
    topComplete: Object.values(sections).every(section => section === null || section.topComplete),
    requests: cap.used,
    maxRequests: settings.maxRequests,
    minHits: settings.minHits,
    top: settings.top,
    ...sections
  }
}

/** The run's request cap and deadline: `max-requests` requests, `timeout` from now. */
export const readLimits = (settings: GapsSettings, clock: Clock): ReadLimits => ({
  deadline: clock.now() + settings.timeoutMs,
  cap: new RequestCap(settings.maxRequests)
})

function unreadPart(answers = 0, requests = 0, stopped = 'reading stopped'): string {
  return answers === 0
    ? `not read: ${stopped}`
    : `only partly read (${counted(requests, 'request')}): ${stopped}`
}

/** Why an error ends reading with a partial report, or undefined when it must fail the step. */
function whyStopped(error: unknown, settings: GapsSettings, timeUp: boolean): string | undefined {
  if (error instanceof CancelledError) return undefined
  if (error instanceof RequestCapReachedError)
    return `'max-requests' (${settings.maxRequests}) was reached: ${error.message}`
  if (error instanceof RateLimitError) {
    return `the service rate limited the requests past the time limit (timeout: ${formatDuration(settings.timeoutMs)}): ${error.message.replace(/\.$/, '')}`
  }
  if (error instanceof ApiError && error.transient) {
    if (timeUp) {
      return `the time limit ran out (timeout: ${formatDuration(settings.timeoutMs)}) waiting for the service (${error.message.replace(/\.$/, '')})`
    }
    return `the service could not be read (${error.message.replace(/\.$/, '')})`
  }
  return undefined
}
