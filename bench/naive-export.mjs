// What a hand-written export does: page with the service's default page size (50), keep every row
// in memory, write the file at the end. Measured against the visitors sub-action.
import { writeFileSync } from 'node:fs'

const { API_URL, API_KEY, PROJECT_ID, OUT } = process.env
const rows = []
let totals
for (let offset = 0; ;) {
  const res = await fetch(`${API_URL}/v1/analytics/${PROJECT_ID}/visitors?offset=${offset}`, {
    headers: { authorization: `Bearer ${API_KEY}` }
  })
  if (!res.ok) throw new Error(`HTTP ${res.status}`)
  const page = await res.json()
  totals = page.totals
  rows.push(...page.visitors)
  if (!page.hasMore) break
  offset += page.visitors.length
}
writeFileSync(OUT, JSON.stringify({ totals, visitors: rows }, null, 2))
