// A line diff of two texts (the longest common subsequence of their lines), for comparing two versions of a flow
// as pretty-printed JSON. Small on purpose: no diff library is available offline as a Maven artifact here.

export interface DiffLine { kind: 'same' | 'added' | 'removed'; text: string; }

/** Past this many differing lines on both sides together the table would be too large; the caller says so instead. */
export const MAX_DIFF_LINES = 6000;

/** The lines of {@code after} against {@code before}: kept, removed (only in before) and added (only in after). */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const a = before.split('\n');
  const b = after.split('\n');
  // what both share at the start and the end is kept as is, so the table below covers only the changed middle
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const midA = a.slice(start, endA), midB = b.slice(start, endB);
  if (midA.length + midB.length > MAX_DIFF_LINES) return null;
  // common[i][j]: length of the longest common subsequence of midA[i..] and midB[j..]
  const common = Array.from({ length: midA.length + 1 }, () => new Uint32Array(midB.length + 1));
  for (let i = midA.length - 1; i >= 0; i--) {
    for (let j = midB.length - 1; j >= 0; j--) {
      common[i][j] = midA[i] === midB[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
    }
  }
  const lines: DiffLine[] = a.slice(0, start).map(text => ({ kind: 'same', text }));
  let i = 0, j = 0;
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      lines.push({ kind: 'same', text: midA[i] }); i++; j++;
    } else if (i < midA.length && (j === midB.length || common[i + 1][j] >= common[i][j + 1])) {
      lines.push({ kind: 'removed', text: midA[i] }); i++;
    } else {
      lines.push({ kind: 'added', text: midB[j] }); j++;
    }
  }
  a.slice(endA).forEach(text => lines.push({ kind: 'same', text }));
  return lines;
}
