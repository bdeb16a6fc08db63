import { createReadStream } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A directory as a POSIX (ustar) tar archive, produced piece by piece: each file is read in 64 KB pieces while it is
 * written out, so memory stays the same whatever the directory's size (PGlite's own dumpDataDir builds the whole
 * archive in memory: 4 GB for a 1.7 GB store). Regular files and directories only (a PGlite data directory has
 * nothing else); `onBytes` is told of each piece of file content read.
 */
export async function* tarDirectory(root: string, onBytes?: (n: number) => void): AsyncGenerator<Buffer> {
  for (const entry of await entriesOf(root, '')) {
    if (entry.directory) {
      yield header(`${entry.path}/`, 0, entry.mode, entry.mtime, '5');
      continue;
    }
    yield header(entry.path, entry.size, entry.mode, entry.mtime, '0');
    let written = 0;
    for await (const piece of createReadStream(join(root, entry.path), { highWaterMark: 64 * 1024 })) {
      const buffer = piece as Buffer;
      // A file that grew while it was read would break the archive's framing: stop at the size in the header.
      const part = written + buffer.length > entry.size ? buffer.subarray(0, entry.size - written) : buffer;
      written += part.length;
      onBytes?.(part.length);
      yield part;
      if (written === entry.size) break;
    }
    if (written < entry.size) throw new Error(`${entry.path} shrank while it was archived`);
    const padding = (512 - (entry.size % 512)) % 512;
    if (padding) yield Buffer.alloc(padding);
  }
  yield Buffer.alloc(1024); // two empty blocks end the archive
}

interface Entry {
  path: string;
  directory: boolean;
  size: number;
  mode: number;
  mtime: number;
}

/** Every directory and regular file under `root`, parents before children, in name order. */
async function entriesOf(root: string, under: string): Promise<Entry[]> {
  const entries: Entry[] = [];
  const names = (await readdir(join(root, under))).sort();
  for (const name of names) {
    const path = under ? `${under}/${name}` : name;
    const stat = await lstat(join(root, path));
    if (stat.isDirectory()) {
      entries.push({ path, directory: true, size: 0, mode: stat.mode & 0o7777, mtime: stat.mtimeMs });
      entries.push(...(await entriesOf(root, path)));
    } else if (stat.isFile()) {
      entries.push({ path, directory: false, size: stat.size, mode: stat.mode & 0o7777, mtime: stat.mtimeMs });
    }
  }
  return entries;
}

/** The bytes of the regular files under `root`: what `tarDirectory` reports through `onBytes`. */
export async function contentBytes(root: string): Promise<number> {
  return (await entriesOf(root, '')).reduce((sum, e) => sum + e.size, 0);
}

function header(path: string, size: number, mode: number, mtimeMs: number, type: '0' | '5'): Buffer {
  const block = Buffer.alloc(512);
  let name = path;
  let prefix = '';
  if (Buffer.byteLength(path) > 100) {
    // ustar: the part after the first '/' that leaves at most 100 bytes is the name, the rest (155 at most) the prefix.
    let cut = path.indexOf('/');
    while (cut >= 0 && Buffer.byteLength(path.slice(cut + 1)) > 100) cut = path.indexOf('/', cut + 1);
    if (cut < 0 || Buffer.byteLength(path.slice(0, cut)) > 155)
      throw new Error(`path too long for a tar archive: ${path}`);
    prefix = path.slice(0, cut);
    name = path.slice(cut + 1);
  }
  const octal = (value: number, width: number) => value.toString(8).padStart(width - 1, '0');
  block.write(name, 0, 100, 'utf8');
  block.write(octal(mode, 8), 100);
  block.write(octal(0, 8), 108); // uid
  block.write(octal(0, 8), 116); // gid
  block.write(octal(size, 12), 124);
  block.write(octal(Math.floor(mtimeMs / 1000), 12), 136);
  block.write('        ', 148); // the checksum counts its own field as spaces
  block.write(type, 156);
  block.write('ustar\u000000', 257);
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${octal(sum, 7)}\u0000 `, 148);
  return block;
}
