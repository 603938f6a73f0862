import { afterAll, beforeAll, expect, it } from 'vitest'
import { createJob, getJob, sendMessage } from '../../src/mintlify/agent-jobs.js'
import { SIM_PROJECT, Simulator } from '../simulator/server.js'
import { inSeconds, simClient } from '../support/clients.js'
import { VirtualClock } from '../support/virtual-clock.js'

// The simulator's jobs run on a virtual clock: the test moves it on past a job's end.
const clock = new VirtualClock()
let sim: Simulator
beforeAll(async () => {
  sim = await Simulator.start({ job: { durationMs: 100 }, now: clock.wallNow })
})
afterAll(() => sim.close())

const settle = () => clock.sleep(150)

it('a follow-up on a completed job makes it active again, then completed with the same pull request', async () => {
  const client = simClient(sim)
  const deadline = inSeconds(10)
  const job = await createJob(client, SIM_PROJECT, 'first change', deadline)
  await settle()
  const done = await getJob(client, SIM_PROJECT, job.id, deadline)
  expect(done).toMatchObject({ status: 'completed', prLink: expect.stringMatching(/\/pull\/\d+$/) })
  // Another job in between must not change this job's pull request.
  await createJob(client, SIM_PROJECT, 'unrelated', deadline)
  sim.planNext({ prLink: false })
  const again = await sendMessage(client, SIM_PROJECT, job.id, 'second change', deadline)
  // Processed asynchronously: the answer still shows the job as it was before the message.
  expect(again).toMatchObject({ id: job.id, status: 'completed', prLink: done.prLink })
  expect(await getJob(client, SIM_PROJECT, job.id, deadline)).toMatchObject({
    status: 'active',
    prLink: null
  })
  await settle()
  expect(await getJob(client, SIM_PROJECT, job.id, deadline)).toMatchObject({
    status: 'completed',
    prLink: done.prLink
  })
  expect(sim.jobs.get(job.id)?.messages).toEqual(['first change', 'second change'])
  await client.close()
})

it('a follow-up is picked up only after pickupMs: until then the job shows as it was', async () => {
  const client = simClient(sim)
  const deadline = inSeconds(10)
  const job = await createJob(client, SIM_PROJECT, 'first', deadline)
  await settle()
  sim.planNext({ pickupMs: 300, durationMs: 60_000 })
  await sendMessage(client, SIM_PROJECT, job.id, 'more', deadline)
  expect((await getJob(client, SIM_PROJECT, job.id, deadline)).status).toBe('completed')
  await clock.sleep(350)
  expect((await getJob(client, SIM_PROJECT, job.id, deadline)).status).toBe('active')
  const other = await createJob(client, SIM_PROJECT, 'second', deadline)
  await settle()
  sim.planNext({ pickupMs: Infinity })
  await sendMessage(client, SIM_PROJECT, other.id, 'never taken', deadline)
  await settle()
  expect((await getJob(client, SIM_PROJECT, other.id, deadline)).status).toBe('completed')
  await client.close()
})

it('reset() is a new world: the next job is job 1 again, with pull request #101; nextRun() keeps the jobs', async () => {
  const client = simClient(sim)
  const deadline = inSeconds(10)
  await createJob(client, SIM_PROJECT, 'an earlier test', deadline)
  sim.reset()
  const first = await createJob(client, SIM_PROJECT, 'this test', deadline)
  await settle()
  expect(first.id).toMatch(/^job_1_/)
  expect(await getJob(client, SIM_PROJECT, first.id, deadline)).toMatchObject({
    prLink: 'https://github.com/acme/docs/pull/101'
  })
  sim.nextRun()
  expect(sim.exchanges).toHaveLength(0)
  const second = await createJob(client, SIM_PROJECT, 'its next run', deadline)
  expect(second.id).toMatch(/^job_2_/)
  expect((await getJob(client, SIM_PROJECT, first.id, deadline)).id).toBe(first.id)
  sim.reset()
  await expect(getJob(client, SIM_PROJECT, first.id, deadline)).rejects.toThrow()
  await client.close()
})
