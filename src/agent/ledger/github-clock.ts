import type { IssueRecord } from '../../github/api.js'
import { WRITE_SLACK_MS } from './dashboard-choice.js'

/**
 * GitHub's clock as the dashboard's writes see it. GitHub stamps each edit of the dashboard on its
 * own clock, and the rollback check (dashboard-choice.ts) compares that stamp with the time the
 * state says it was written: so the state is stamped on GitHub's clock too, read from the `date` of
 * GitHub's answers, and not on the runner's, which may be minutes off.
 */
export class GitHubClock {
  /** GitHub's clock minus the runner's (ms), as last read; 0 until an answer says. */
  private offset = 0

  constructor(private readonly runnersNow: () => number) {}

  /** GitHub's time now, as best known. */
  now(): number {
    return this.runnersNow() + this.offset
  }

  /**
   * Reads GitHub's clock off an answer: its `date` is in whole seconds, so GitHub's time was within
   * the second after it (its middle is taken).
   */
  learn(answer: Pick<IssueRecord, 'answeredAt'>): void {
    if (answer.answeredAt !== undefined) this.offset = answer.answeredAt + 500 - this.runnersNow()
  }

  /**
   * GitHub recorded the write later than the state it holds says (a slow answer): a person's edit
   * after it would be taken for a restore, so the state is written once more. `updated_at` is in
   * whole seconds: the edit was made within the second after it.
   */
  recordedLate(answer: Pick<IssueRecord, 'updatedAt'>, writtenAt: number | undefined): boolean {
    if (answer.updatedAt === undefined || writtenAt === undefined) return false
    return answer.updatedAt + 1000 > writtenAt + WRITE_SLACK_MS
  }
}
