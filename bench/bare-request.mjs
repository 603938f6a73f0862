// The floor for a Node process that makes one HTTP request: bare Node sending the request the
// visitors sub-action sends first (BARE_CLIENT=http: node:http, the least Node can do; fetch:
// Node's built-in fetch), and nothing else. Measured against the actions' start-up.
import http from 'node:http'

const { API_URL, API_KEY, PROJECT_ID, BARE_CLIENT } = process.env
const url = `${API_URL}/v1/analytics/${PROJECT_ID}/visitors?limit=250&offset=0`
const headers = { authorization: `Bearer ${API_KEY}`, accept: 'application/json' }
if (BARE_CLIENT === 'fetch') {
  await (await fetch(url, { headers })).text()
} else {
  await new Promise((resolve, reject) =>
    http.get(url, { headers }, res => res.resume().on('end', resolve)).on('error', reject)
  )
}
