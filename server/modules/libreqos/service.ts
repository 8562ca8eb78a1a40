/**
 * The LibreQoS shaper export (issue 36): ShapedDevices.csv streamed in pages of circuits (never the whole file in
 * memory), network.json from the same placement of circuits under NAS devices and sites, and the scheduled export
 * that writes both into a folder LibreQoS reads (each to a temporary file, then renamed over the old one, so
 * LibreQoS never reads half a file). Formats and rules: ./format.ts.
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { Pace } from '../../lib/pace';
import {
  circuitRates,
  type CircuitRow,
  csvRecord,
  type NetworkNode,
  SHAPED_DEVICES_HEADER,
  shapedDeviceRecord,
  Topology,
} from './format';
import { createLibreqosRepository } from './repository';

export const SHAPED_DEVICES_FILE = 'ShapedDevices.csv';
export const NETWORK_FILE = 'network.json';

export interface LibreqosExportResult {
  dir: string;
  circuits: number;
  nodes: number;
}

export class LibreqosExportService {
  private readonly repository;

  constructor(private readonly deps: { db: Db; clock: Clock; embedded: boolean }) {
    this.repository = createLibreqosRepository(deps.db);
  }

  /** The hierarchy before any circuit is placed (the NAS devices and their sites). */
  async topology(): Promise<Topology> {
    return new Topology(await this.repository.nasDevices());
  }

  /**
   * Every circuit, a page at a time. On the embedded database each page is smaller and the export gives way to other
   * requests between pages (lib/pace.ts); PostgreSQL reads 2 000 rows a page.
   */
  async *circuitPages(): AsyncGenerator<CircuitRow[]> {
    const now = this.deps.clock.now();
    const size = this.deps.embedded ? 500 : 2000;
    const pace = new Pace(this.deps.embedded);
    let after: string | null = null;
    for (;;) {
      const page = await this.repository.circuits(now, after, size);
      if (page.length) yield page;
      if (page.length < size) return;
      after = page[page.length - 1].subscriptionId;
      await pace.step();
    }
  }

  /** ShapedDevices.csv as chunks of text (the header, then one chunk per page); places the circuits in `topology`. */
  async *shapedDevicesCsv(topology: Topology, counted = { circuits: 0 }): AsyncGenerator<string> {
    yield csvRecord(SHAPED_DEVICES_HEADER);
    const seenIpv6 = new Set<string>();
    for await (const page of this.circuitPages()) {
      let chunk = '';
      for (const row of page) chunk += shapedDeviceRecord(row, topology, seenIpv6);
      counted.circuits += page.length;
      yield chunk;
    }
  }

  /** network.json's tree, its nodes' rates summed from the circuits under them. */
  async networkJson(): Promise<Record<string, NetworkNode>> {
    const topology = await this.topology();
    for await (const page of this.circuitPages()) for (const row of page) topology.place(row, circuitRates(row));
    return topology.networkJson();
  }

  /**
   * Writes network.json and ShapedDevices.csv into `dir` from one reading of the circuits: the CSV goes to a
   * temporary file first (placing the circuits), then network.json is written, and both are renamed into place,
   * network.json first so every Parent Node of the new CSV already exists when LibreQoS reads it.
   */
  async writeFiles(dir: string): Promise<LibreqosExportResult> {
    await mkdir(dir, { recursive: true });
    const tag = `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    const csvTemp = path.join(dir, `${SHAPED_DEVICES_FILE}${tag}`);
    const jsonTemp = path.join(dir, `${NETWORK_FILE}${tag}`);
    try {
      const topology = await this.topology();
      const counted = { circuits: 0 };
      const out = createWriteStream(csvTemp, { encoding: 'utf8' });
      const failed = once(out, 'error').then(([error]) => {
        throw error;
      });
      failed.catch(() => {});
      for await (const chunk of this.shapedDevicesCsv(topology, counted)) {
        if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
      }
      out.end();
      await Promise.race([once(out, 'finish'), failed]);
      const tree = topology.networkJson();
      await writeFile(jsonTemp, `${JSON.stringify(tree, null, 2)}\n`, 'utf8');
      await rename(jsonTemp, path.join(dir, NETWORK_FILE));
      await rename(csvTemp, path.join(dir, SHAPED_DEVICES_FILE));
      return { dir, circuits: counted.circuits, nodes: countNodes(tree) };
    } finally {
      await rm(csvTemp, { force: true });
      await rm(jsonTemp, { force: true });
    }
  }
}

function countNodes(tree: Record<string, NetworkNode>): number {
  let n = 0;
  for (const node of Object.values(tree)) n += 1 + (node.children ? countNodes(node.children) : 0);
  return n;
}
