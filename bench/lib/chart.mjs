// A horizontal bar chart of ratios as a standalone SVG: one bar per ratio (its median), a whisker
// for its 95% CI, a dashed mark at its goal, the bar coloured by the goal's verdict.
import { ratio } from "./common.mjs"

const COLORS = {
  met: "#2e7d32",
  "met within noise": "#81c784",
  "missed within noise": "#ffb74d",
  missed: "#d32f2f",
  context: "#90a4ae",
}
const LEGEND = [
  ["met", "goal met"],
  ["met within noise", "met by the median, within noise"],
  ["missed within noise", "missed by the median, within noise"],
  ["missed", "goal missed"],
  ["context", "no goal (context)"],
]

const escape = (text) =>
  String(text).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  )

/** Round numbers for the axis: a step of 1, 2 or 5 × 10^n giving about eight ticks up to `max`. */
function ticks(max) {
  const rough = max / 8
  const power = 10 ** Math.floor(Math.log10(rough))
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough)
  return Array.from({ length: Math.floor(max / step) + 1 }, (_, i) => +(i * step).toFixed(10))
}

/**
 * `rows`: `{ label, median, low, high, goal?, verdict? }`. Returns the SVG source, `width` wide.
 */
export function ratioChart(rows, { title, subtitle, width = 820 } = {}) {
  const labelWidth = 300
  const left = labelWidth + 16
  const right = width - 150
  const top = subtitle ? 64 : 44
  const rowHeight = 34
  const plotBottom = top + rows.length * rowHeight
  const height = plotBottom + 78
  const max = Math.max(1, ...rows.flatMap((r) => [r.high, r.median, r.goal ?? 0])) * 1.08
  const axis = ticks(max)
  const end = Math.max(max, axis.at(-1))
  const x = (value) => left + ((right - left) * value) / end

  const parts = []
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" font-size="13">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  )
  if (title)
    parts.push(
      `<text x="16" y="24" font-size="16" font-weight="600" fill="#212121">${escape(title)}</text>`,
    )
  if (subtitle)
    parts.push(`<text x="16" y="44" font-size="12" fill="#616161">${escape(subtitle)}</text>`)

  // Grid and axis.
  for (const value of axis) {
    parts.push(
      `<line x1="${x(value)}" y1="${top - 4}" x2="${x(value)}" y2="${plotBottom}" stroke="${value === 1 ? "#9e9e9e" : "#eeeeee"}" stroke-width="1"/>`,
      `<text x="${x(value)}" y="${plotBottom + 16}" text-anchor="middle" font-size="11" fill="#757575">${value}×</text>`,
    )
  }

  rows.forEach((row, i) => {
    const y = top + i * rowHeight
    const mid = y + rowHeight / 2
    const color = COLORS[row.goal === undefined ? "context" : row.verdict] ?? COLORS.context
    parts.push(
      `<text x="${labelWidth}" y="${mid + 4}" text-anchor="end" fill="#212121">${escape(row.label)}</text>`,
      `<rect x="${left}" y="${y + 8}" width="${Math.max(1, x(row.median) - left)}" height="${rowHeight - 16}" fill="${color}" rx="2"/>`,
      // The 95% CI of the median.
      `<line x1="${x(row.low)}" y1="${mid}" x2="${x(row.high)}" y2="${mid}" stroke="#424242" stroke-width="1.5"/>`,
      `<line x1="${x(row.low)}" y1="${mid - 5}" x2="${x(row.low)}" y2="${mid + 5}" stroke="#424242" stroke-width="1.5"/>`,
      `<line x1="${x(row.high)}" y1="${mid - 5}" x2="${x(row.high)}" y2="${mid + 5}" stroke="#424242" stroke-width="1.5"/>`,
    )
    if (row.goal !== undefined)
      parts.push(
        `<line x1="${x(row.goal)}" y1="${y + 3}" x2="${x(row.goal)}" y2="${y + rowHeight - 3}" stroke="#212121" stroke-width="2" stroke-dasharray="3 2"/>`,
      )
    const valueX = Math.max(x(row.high), x(row.median), row.goal === undefined ? 0 : x(row.goal))
    const goalText = row.goal === undefined ? "" : ` (goal ≥ ${row.goal})`
    parts.push(
      `<text x="${valueX + 6}" y="${mid + 4}" font-weight="600" fill="#212121">${ratio(row.median)}×<tspan font-weight="400" fill="#616161" font-size="11">${escape(goalText)}</tspan></text>`,
    )
  })

  // Legend.
  let lx = 16
  const ly = plotBottom + 40
  for (const [key, text] of LEGEND) {
    parts.push(
      `<rect x="${lx}" y="${ly - 10}" width="12" height="12" fill="${COLORS[key]}" rx="2"/>`,
      `<text x="${lx + 17}" y="${ly}" font-size="11" fill="#424242">${escape(text)}</text>`,
    )
    lx += 26 + text.length * 5.6
  }
  parts.push(
    `<text x="16" y="${ly + 22}" font-size="11" fill="#616161">Bars: median of per-round ratios; whiskers: its 95% CI; dashed: the goal. Above 1: the first is faster.</text>`,
    "</svg>",
  )
  return `${parts.join("\n")}\n`
}
