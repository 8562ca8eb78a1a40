/**
 * LibreQoS's two input files (issue 36, shaper export), written from the portal's subscriptions, plans, NAS devices
 * and IP management. The layouts follow LibreQoS itself (github.com/LibreQoE/LibreQoS, develop as of 2026-08,
 * commit 455bc13b):
 *   - ShapedDevices.csv: src/ShapedDevices.example.csv and docs/v2.0/configuration-advanced.md ("The base format has
 *     15 columns"); read by src/rust/lqos_config/src/shaped_devices/shaped_device.rs (header-aware, also accepts the
 *     older 13-column layout without Parent Node ID and Anchor Node ID) and validated by src/LibreQoS.py
 *     (validateNetworkAndDevices: min/max ≥ 0.1 Mbps, min ≤ max, no IPv6 twice, a line whose first field starts with
 *     "#" is a comment). Several addresses go comma-separated inside one quoted field.
 *   - network.json: src/network.example.json; node names must be unique across the whole tree
 *     (docs/v2.0/configuration.md), each node has downloadBandwidthMbps, uploadBandwidthMbps, a free-text `type`, an
 *     optional stable `id` (docs/v2.0/configuration-advanced.md, "Network.json") and optional `children`; a circuit's
 *     Parent Node must name one of them (src/rust/lqos_support_tool/src/sanity_checks/shaped_devices.rs).
 *
 * Pure: no database, no clock. The repository gives the rows, service.ts streams them through here.
 */

import { DEFAULT_THROTTLE_KBPS } from '../radius/directory';
import { GB, thresholds } from '../radius/fair-use';

/** ShapedDevices.csv's columns, in LibreQoS's order (the 15-column base format, no optional `sqm`). */

export const SHAPED_DEVICES_HEADER = [
  'Circuit ID',
  'Circuit Name',
  'Device ID',
  'Device Name',
  'Parent Node',
  'Parent Node ID',
  'Anchor Node ID',
  'MAC',
  'IPv4',
  'IPv6',
  'Download Min Mbps',
  'Upload Min Mbps',
  'Download Max Mbps',
  'Upload Max Mbps',
  'Comment',
] as const;

/**
 * The guaranteed (minimum) rate of every circuit, in Mbit/s: LibreQoS's own recommendation ("set the min bandwidth to
 * 1/1", docs/v2.0/configuration-advanced.md), so when a NAS node is full its remaining capacity is shared fairly.
 * Never above the circuit's maximum.
 */
export const MIN_MBPS = 1;
/** LibreQoS's floor for a circuit's maximum ("must be 2 Mbps or greater"): a slower plan is exported at 2. */
export const MAX_FLOOR_MBPS = 2;
/** A node no circuit is under gets this rate (Mbit/s): a node's rate is otherwise the sum of its circuits' plans. */
export const EMPTY_NODE_MBPS = 1000;

/**
 * One field of a CSV line (RFC 4180): quoted when it holds a comma, a quote or a line break (or starts or ends with a
 * space), quotes doubled. Line breaks and other control characters in a name are turned into spaces first, so every
 * record is one line for line-oriented tools. Unlike the users' export, no apostrophe is put before "=", "+", "-" or
 * "@": LibreQoS reads the values, no spreadsheet does, and a changed name would no longer match.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
  const text = String(value).replace(/[\u0000-\u001f\u007f]/g, ' ');
  return /[",]|^ | $/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvRecord = (fields: ReadonlyArray<string | number | null | undefined>) =>
  `${fields.map(csvField).join(',')}\r\n`;

/** What the repository reads of one circuit (a subscription that has service now). */
export interface CircuitRow {
  subscriptionId: string;
  customerName: string;
  customerNumber: string | null;
  planName: string;
  downloadMbps: number;
  uploadMbps: number;
  /** The plan's fair use (issue 36) and the tier the subscription is in this cycle (null: none recorded, full speed). */
  usageTiers: { afterGb: number; downloadKbps: number; uploadKbps: number }[];
  dataCapGb: number | null;
  dataCapAction: 'reject' | 'throttle';
  throttleDownloadKbps: number | null;
  throttleUploadKbps: number | null;
  tier: number | null;
  /** The PPPoE login, if the line has one. */
  username: string | null;
  /** The static address from IP management, or (none) the address of the open RADIUS session. */
  staticIp: string | null;
  sessionIp: string | null;
  framedIpv6Prefix: string | null;
  delegatedIpv6Prefix: string | null;
  /** The NAS of the newest RADIUS session (open or closed). */
  sessionNasId: string | null;
  /** The NAS and site of the network the static address or the pool belongs to (IP management). */
  networkNasId: string | null;
  networkSite: string | null;
}

/** A device that may be a parent: the NAS devices (RADIUS clients) and any device a circuit's session ran through. */
export interface NasRow {
  id: string;
  name: string;
  host: string;
  location: string | null;
}

export interface NetworkNode {
  id: string;
  downloadBandwidthMbps: number;
  uploadBandwidthMbps: number;
  type: string;
  children?: Record<string, NetworkNode>;
}

interface NodeState {
  name: string;
  id: string;
  type: 'site' | 'ap';
  download: number;
  upload: number;
  circuits: number;
  /** A site's NAS devices (by node name). */
  children: string[];
  /** Included in network.json even without circuits (a known NAS or a site of one). */
  always: boolean;
}

const UNASSIGNED = 'Unassigned';

type RateRow = Pick<
  CircuitRow,
  | 'downloadMbps'
  | 'uploadMbps'
  | 'usageTiers'
  | 'dataCapGb'
  | 'dataCapAction'
  | 'throttleDownloadKbps'
  | 'throttleUploadKbps'
  | 'tier'
>;

/**
 * The rate the subscription runs at now, in Mbit/s: the plan's, or its fair-use tier's this cycle (issue 36; the
 * same thresholds RADIUS applies, radius/fair-use.ts). Past a hard stop the line has no service: the floor.
 */
function currentMbps(row: RateRow): { download: number; upload: number } {
  const plan = { download: row.downloadMbps, upload: row.uploadMbps };
  if (!row.tier) return plan;
  const threshold = thresholds({
    downloadMbps: row.downloadMbps,
    uploadMbps: row.uploadMbps,
    usageTiers: row.usageTiers ?? [],
    dataCapBytes: row.dataCapGb === null ? null : row.dataCapGb * GB,
    dataCapAction: row.dataCapAction,
    throttleDownloadKbps: row.throttleDownloadKbps ?? DEFAULT_THROTTLE_KBPS,
    throttleUploadKbps: row.throttleUploadKbps ?? DEFAULT_THROTTLE_KBPS,
  })[row.tier - 1];
  if (!threshold) return plan;
  if (!threshold.rate) return { download: 0, upload: 0 };
  return { download: threshold.rate.downloadKbps / 1000, upload: threshold.rate.uploadKbps / 1000 };
}

/**
 * A circuit's rates as LibreQoS wants them (see MIN_MBPS, MAX_FLOOR_MBPS): the rate the subscription runs at now,
 * the plan's or its current fair-use tier's, in whole Mbit/s.
 */
export function circuitRates(row: RateRow) {
  const now = currentMbps(row);
  const downloadMax = Math.max(MAX_FLOOR_MBPS, Math.round(now.download));
  const uploadMax = Math.max(MAX_FLOOR_MBPS, Math.round(now.upload));
  return {
    downloadMin: Math.min(MIN_MBPS, downloadMax),
    uploadMin: Math.min(MIN_MBPS, uploadMax),
    downloadMax,
    uploadMax,
  };
}

/**
 * The hierarchy: sites (the devices' `location`, and the `site` of IP networks) above NAS devices. Names are made
 * unique across the tree (LibreQoS requires it): a NAS named like a site or like another NAS gets its host added.
 * Circuits are placed with `place` (which also adds their rates up), then `networkJson` writes the tree.
 */
export class Topology {
  private readonly nodes = new Map<string, NodeState>();
  private readonly nasNode = new Map<string, string>();
  private readonly siteNode = new Map<string, string>();
  private readonly parentOfNas = new Map<string, string>();

  constructor(nas: readonly NasRow[]) {
    // Sites first, so their names win over a NAS of the same name.
    for (const device of nas) {
      const site = device.location?.trim();
      if (site) this.site(site, true);
    }
    for (const device of [...nas].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))) {
      const name = this.uniqueName(device.name.trim() || device.host, device.host, device.id);
      this.nodes.set(name, {
        name,
        id: `portal:nas:${device.id}`,
        type: 'ap',
        download: 0,
        upload: 0,
        circuits: 0,
        children: [],
        always: true,
      });
      this.nasNode.set(device.id, name);
      const site = device.location?.trim();
      if (site) {
        const siteName = this.site(site, true);
        this.parentOfNas.set(name, siteName);
        this.nodes.get(siteName)!.children.push(name);
      }
    }
  }

  /**
   * The node a circuit hangs from: the NAS of its newest RADIUS session, else the NAS its address's network is
   * routed to, else that network's site, else the generated "Unassigned" node. Adds the circuit's maximum rates to
   * the node and to its site.
   */
  place(row: CircuitRow, rates: { downloadMax: number; uploadMax: number }): { name: string; id: string } {
    const name =
      (row.sessionNasId && this.nasNode.get(row.sessionNasId)) ||
      (row.networkNasId && this.nasNode.get(row.networkNasId)) ||
      (row.networkSite?.trim() && this.site(row.networkSite.trim(), false)) ||
      this.unassigned();
    const node = this.nodes.get(name)!;
    for (const n of [node, this.nodes.get(this.parentOfNas.get(name) ?? '')]) {
      if (!n) continue;
      n.download += rates.downloadMax;
      n.upload += rates.uploadMax;
      n.circuits += 1;
    }
    return { name, id: node.id };
  }

  /** network.json: sites with their NAS devices as children, NAS devices without a site at the top. */
  networkJson(): Record<string, NetworkNode> {
    const out: Record<string, NetworkNode> = {};
    const write = (state: NodeState): NetworkNode => {
      const node: NetworkNode = {
        id: state.id,
        downloadBandwidthMbps: state.circuits ? state.download : EMPTY_NODE_MBPS,
        uploadBandwidthMbps: state.circuits ? state.upload : EMPTY_NODE_MBPS,
        type: state.type,
      };
      if (state.children.length) {
        node.children = {};
        for (const child of state.children) node.children[child] = write(this.nodes.get(child)!);
      }
      return node;
    };
    const top = [...this.nodes.values()].filter((n) => !this.parentOfNas.has(n.name) && (n.always || n.circuits > 0));
    for (const state of top.sort((a, b) => a.name.localeCompare(b.name))) out[state.name] = write(state);
    return out;
  }

  private site(location: string, always: boolean): string {
    const known = this.siteNode.get(location.toLowerCase());
    if (known) {
      if (always) this.nodes.get(known)!.always = true;
      return known;
    }
    const name = this.uniqueName(location, 'site', location.toLowerCase());
    this.nodes.set(name, {
      name,
      id: `portal:site:${location.toLowerCase()}`,
      type: 'site',
      download: 0,
      upload: 0,
      circuits: 0,
      children: [],
      always,
    });
    this.siteNode.set(location.toLowerCase(), name);
    return name;
  }

  private unassigned(): string {
    const known = this.siteNode.get('\u0000unassigned');
    if (known) return known;
    const name = this.uniqueName(UNASSIGNED, 'generated', 'unassigned');
    this.nodes.set(name, {
      name,
      id: 'portal:generated:unassigned',
      type: 'site',
      download: 0,
      upload: 0,
      circuits: 0,
      children: [],
      always: false,
    });
    this.siteNode.set('\u0000unassigned', name);
    return name;
  }

  private uniqueName(name: string, qualifier: string, id: string): string {
    for (const candidate of [name, `${name} (${qualifier})`, `${name} (${id})`]) {
      if (!this.nodes.has(candidate)) return candidate;
    }
    let n = 2;
    while (this.nodes.has(`${name} (${id}) ${n}`)) n++;
    return `${name} (${id}) ${n}`;
  }
}

/**
 * One ShapedDevices.csv record: one circuit per subscription, its line as the one device. `seenIpv6` holds the IPv6
 * prefixes written so far: LibreQoS refuses the whole file when one appears twice, so a repeated one is left out.
 */
export function shapedDeviceRecord(row: CircuitRow, topology: Topology, seenIpv6: Set<string>): string {
  const rates = circuitRates(row);
  const parent = topology.place(row, rates);
  const ipv4 = row.staticIp ?? row.sessionIp;
  const ipv6: string[] = [];
  for (const prefix of [row.framedIpv6Prefix, row.delegatedIpv6Prefix]) {
    if (!prefix || seenIpv6.has(prefix)) continue;
    seenIpv6.add(prefix);
    ipv6.push(prefix);
  }
  const customer = row.customerNumber ? `${row.customerName} (${row.customerNumber})` : row.customerName;
  return csvRecord([
    row.subscriptionId,
    customer,
    row.subscriptionId,
    row.username ?? row.planName,
    parent.name,
    parent.id,
    '',
    // LibreQoS matches RADIUS sessions to a row by this field when it holds the User-Name (its RADIUS accounting
    // mode, match_shaped_devices_by_username): the PPPoE login, when the line has one.
    row.username ?? '',
    ipv4 && isIpv4(ipv4) ? ipv4 : '',
    ipv6.join(','),
    rates.downloadMin,
    rates.uploadMin,
    rates.downloadMax,
    rates.uploadMax,
    row.planName,
  ]);
}

const isIpv4 = (address: string) => /^\d{1,3}(\.\d{1,3}){3}(\/\d{1,2})?$/.test(address);
