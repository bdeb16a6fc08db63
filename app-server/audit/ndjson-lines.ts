import { createReadStream } from 'node:fs';

export interface NumberedLine {
  /** 1-based, counting every line of the file, blank ones included. */
  number: number;
  text: string;
}

/**
 * The lines of a text file (LF or CRLF), numbered, read in 1 MB pieces: cheaper than readline for files of
 * hundreds of megabytes. The last line may lack its newline.
 */
export async function* numberedLines(path: string): AsyncGenerator<NumberedLine> {
  let number = 0;
  let rest = '';
  for await (const piece of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest + (piece as string);
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield { number: ++number, text: withoutCr(text.slice(start, end)) };
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest !== '') yield { number: number + 1, text: withoutCr(rest) };
}

/** A line's JSON object, or why the line has none. */
export function parseObjectLine(text: string): { value: Record<string, unknown> } | { error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { error: 'is not valid JSON' };
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? { value: value as Record<string, unknown> } : { error: 'is not a JSON object' };
}

const withoutCr = (line: string) => (line.endsWith('\r') ? line.slice(0, -1) : line);
