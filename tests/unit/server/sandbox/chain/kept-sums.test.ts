// A shared chain's whole epochs' sums kept between starts (server/sandbox/chain/kept-sums.ts): a
// chain closed saves them to its file, and started again installs them before it answers, so its
// pages of old epochs read them rather than sum their blocks; a file of another history (another
// identity) or no file at all installs nothing, and the chain sums as before; the chain's sums-only
// worker is told which segments they hold; the part files a process stopped mid-write left beside
// the file are removed at the next load.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { SandboxChain } from '../../../../../server/sandbox/chain/index';
import { fileHistorySumsStore } from '../../../../../server/sandbox/chain/kept-sums';
import { SweepClient } from '../../../../../server/sandbox/chain/sweep';
import { SegmentBits } from '../../../../../server/sandbox/chain/totals';
import { sliced } from '../../../../../server/sandbox/chain/budget';
import { testChain } from './support';

const chains: SandboxChain[] = [];
afterAll(() => Promise.all(chains.map((c) => c.close())));

function chainKeptIn(file: string): SandboxChain {
  const { chain } = testChain({ historyStore: fileHistorySumsStore(file) });
  chains.push(chain);
  return chain;
}

const sumsOf = (page: Array<{ epoch: number; tx_count: number; output: string; fees: string }>) => page.map((e) => ({ epoch: e.epoch, tx_count: e.tx_count, output: e.output, fees: e.fees }));
const pageAt = (chain: SandboxChain, epoch: number) => sliced(() => chain.epochNext(epoch, { count: 100, page: 1, order: 'asc' })!);

/** The file's identity line and its records (each an epoch's number and five float64 sums). */
function readKept(file: string): { identity: string; records: Float64Array } {
  const bytes = readFileSync(file);
  const nl = bytes.indexOf(0x0a);
  const rest = bytes.subarray(nl + 1);
  return { identity: bytes.subarray(0, nl).toString('latin1'), records: new Float64Array(rest.buffer.slice(rest.byteOffset, rest.byteOffset + rest.byteLength)) };
}

function writeKept(file: string, identity: string, records: Float64Array): void {
  writeFileSync(file, Buffer.concat([Buffer.from(`${identity}\n`, 'latin1'), Buffer.from(records.buffer)]));
}

describe('a shared chain\'s epochs\' sums kept between starts', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cairn-kept-sums-'));
  const file = path.join(dir, 'sandbox-chains', 'epoch-sums-preprod.bin');

  it('saves the whole epochs\' sums when the chain closes, and a chain started again reads them before it answers', async () => {
    const first = chainKeptIn(file);
    await first.ready();
    const epoch = Math.floor(first.epochOfHeight(first.tipHeight()) / 3);
    const summed = sumsOf(await pageAt(first, epoch));
    await first.close();
    const kept = readKept(file);
    expect(kept.identity).toMatch(/^[0-9a-f]{40}$/);
    // The page's hundred epochs at least, each a record of six float64s.
    const epochs = Array.from({ length: kept.records.length / 6 }, (_, i) => kept.records[i * 6]!);
    expect(epochs).toEqual(expect.arrayContaining(summed.map((e) => e.epoch)));

    // The file's numbers changed for one epoch: the chain started again answers them, so it read
    // the file rather than summing the blocks.
    const at = epochs.indexOf(epoch + 1) * 6;
    const records = kept.records.slice();
    records[at + 1] = 12_345;
    writeKept(file, kept.identity, records);
    const again = chainKeptIn(file);
    await again.ready();
    const read = sumsOf(await pageAt(again, epoch));
    expect(read[0]!.tx_count).toBe(12_345);
    expect(read.slice(1)).toEqual(summed.slice(1));

    // Another history's file (another identity) is read by none: the chain sums its own.
    writeKept(file, 'f'.repeat(40), records);
    const other = chainKeptIn(file);
    await other.ready();
    expect(sumsOf(await pageAt(other, epoch))).toEqual(summed);
  }, 60_000);

  it('tells the chain\'s sums-only worker which segments the kept sums hold, so that it does not sum them again', async () => {
    const kept = path.join(dir, 'held', 'epoch-sums-preprod.bin');
    const first = chainKeptIn(kept);
    await first.ready();
    const epoch = Math.floor(first.epochOfHeight(first.tipHeight()) / 2);
    await pageAt(first, epoch);
    await first.close();
    const held = vi.spyOn(SweepClient.prototype, 'held');
    try {
      const { chain } = testChain({ historyStore: fileHistorySumsStore(kept), sweep: { dir: null, sumsOnly: true } });
      chains.push(chain);
      await chain.ready();
      await expect.poll(() => held.mock.calls.length).toBe(1);
      const bits = held.mock.calls[0]![0];
      const { segmentLength, blocksPerEpoch } = chain.params;
      // The segments of the page's epochs (the first and last may share an epoch with one not summed).
      const from = Math.ceil((epoch * blocksPerEpoch) / segmentLength);
      const to = Math.floor(((epoch + 100) * blocksPerEpoch) / segmentLength) - 1;
      const told = new SegmentBits();
      told.addAll(bits);
      const isHeld = (s: number): boolean => told.has(s);
      expect(to - from).toBeGreaterThan(10);
      for (let s = from; s <= to; s++) expect(isHeld(s), `segment ${s}`).toBe(true);
      expect(isHeld(from - 20)).toBe(false);
    } finally {
      held.mockRestore();
    }
  }, 60_000);

  it('removes the part files a process stopped mid-write left beside the file, not those of a running process', async () => {
    const kept = path.join(dir, 'parts', 'epoch-sums-preview.bin');
    mkdirSync(path.dirname(kept), { recursive: true });
    // A process that has ended (its id not reused within the test) left one; this process is writing another.
    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const left = `${kept}.${Number(ended.stdout)}.part`;
    const writing = `${kept}.${process.pid}.part`;
    const unrelated = path.join(path.dirname(kept), 'epoch-sums-preview.bin.notes');
    for (const f of [left, writing, unrelated]) writeFileSync(f, 'x');
    expect(await fileHistorySumsStore(kept).load()).toBeNull();
    expect([existsSync(left), existsSync(writing), existsSync(unrelated)]).toEqual([false, true, true]);
  });

  it('answers as before without a file, or with one it cannot read', async () => {
    const missing = chainKeptIn(path.join(dir, 'nowhere', 'epoch-sums-preprod.bin'));
    await missing.ready();
    const plain = testChain().chain;
    chains.push(plain);
    const epoch = Math.floor(plain.epochOfHeight(plain.tipHeight()) / 2);
    const expected = sumsOf(await pageAt(plain, epoch));
    expect(sumsOf(await pageAt(missing, epoch))).toEqual(expected);
    const garbled = path.join(dir, 'garbled.bin');
    writeFileSync(garbled, 'not a file of sums');
    const bad = chainKeptIn(garbled);
    await bad.ready();
    expect(sumsOf(await pageAt(bad, epoch))).toEqual(expected);
  }, 60_000);
});
