/** URLs pasted or uploaded one per line: blank lines and `#` comments skipped, each URL keeping its line number for errors. */
export interface ListedUrl {
  url: string;
  line: number;
}

export function parseUrlList(text: string): ListedUrl[] {
  return text
    .split(/\r?\n/)
    .map((raw, index) => ({ url: raw.trim(), line: index + 1 }))
    .filter((entry) => entry.url !== '' && !entry.url.startsWith('#'));
}
