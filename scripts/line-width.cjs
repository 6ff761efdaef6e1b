// The lines longer than the line width (dprint.json's lineWidth, 120) in hand-written text files: code, protos,
// manifests, scripts, styles. scripts/format.cjs lists them after formatting, and its --check mode (run first by
// `npm test`) fails on any, naming each FILE:LINE.
// Width is counted in characters (code points), as the formatter counts it.
// Exempt, because their lines are not ours to break:
//   - Markdown (*.md): tables, links and example output read worse broken;
//   - package-lock.json, written by npm;
//   - generated and build output: dprint.json's "excludes" (gen/, dist/, ...);
//   - binary files (a NUL byte in their first 8000 bytes);
//   - RECORDED: byte-for-byte copies of outside documents, kept as they were served.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const RECORDED = new Set(['services/quotes-transactions/rates/test-fixtures/eurofxref-daily.xml']);

function exempt(file) {
  return file.endsWith('.md') || file.split('/').pop() === 'package-lock.json' || RECORDED.has(file);
}

/** `FILE:LINE (N characters)` for each line of `files` (paths from `root`) longer than `width`. */
function longLines(root, files, width) {
  const found = [];
  for (const file of files) {
    if (exempt(file)) continue;
    const bytes = readFileSync(join(root, file));
    if (bytes.subarray(0, 8000).includes(0)) continue;
    bytes.toString('utf8').split('\n').forEach((line, i) => {
      const length = [...line.replace(/\r$/, '')].length;
      if (length > width) found.push(`${file}:${i + 1} (${length} characters)`);
    });
  }
  return found;
}

module.exports = { longLines, exempt };
