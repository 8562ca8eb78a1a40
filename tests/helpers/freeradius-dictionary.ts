/**
 * A small reader of FreeRADIUS dictionary files (Debian's freeradius-common, /usr/share/freeradius): VENDOR,
 * BEGIN-VENDOR / END-VENDOR and ATTRIBUTE lines (VALUE, $INCLUDE and the rest are skipped). The NAS profile tests
 * check the portal's vendor attributes against it: an outside source for the numbers and types.
 *
 *   const cisco = readDictionary('cisco');
 *   cisco.vendors.get('Cisco')            // 9
 *   cisco.attributes.get('Cisco-AVPair')  // { name, vendor: 9, vendorName: 'Cisco', number: 1, type: 'string' }
 */
import { readFileSync } from 'node:fs';

export const FREERADIUS_DICTIONARY_DIR = process.env.FREERADIUS_DICTIONARY_DIR ?? '/usr/share/freeradius';

export interface DictionaryAttribute {
  name: string;
  /** Vendor id; null for an attribute outside any vendor block (RFC attributes). */
  vendor: number | null;
  vendorName: string | null;
  /** The attribute number; a TLV child like "158.1" keeps its first number here and the whole in `path`. */
  number: number;
  path: string;
  /** integer, string, ipaddr, octets, tlv, ... (lower case). */
  type: string;
}

export interface Dictionary {
  vendors: Map<string, number>;
  attributes: Map<string, DictionaryAttribute>;
  /** By "vendor:number" ("null:11" for an RFC attribute). */
  byNumber: Map<string, DictionaryAttribute>;
}

/** Parses dictionary text. */
export function parseDictionary(text: string, into?: Dictionary): Dictionary {
  const dict: Dictionary = into ?? { vendors: new Map(), attributes: new Map(), byNumber: new Map() };
  let current: string | null = null;
  for (const rawLine of text.split('\n')) {
    const line = rawLine.replace(/#.*$/, '').trim();
    if (!line) continue;
    const [keyword, ...args] = line.split(/\s+/);
    switch (keyword) {
      case 'VENDOR':
        if (args.length >= 2) dict.vendors.set(args[0], Number(args[1]));
        break;
      case 'BEGIN-VENDOR':
        current = args[0] ?? null;
        break;
      case 'END-VENDOR':
        current = null;
        break;
      case 'ATTRIBUTE': {
        const [name, number, type] = args;
        if (!name || !number || !type) break;
        const vendor = current ? (dict.vendors.get(current) ?? null) : null;
        const attr: DictionaryAttribute = {
          name,
          vendor,
          vendorName: current,
          number: Number(number.split('.')[0]),
          path: number,
          type: type.toLowerCase(),
        };
        dict.attributes.set(name, attr);
        if (!number.includes('.')) dict.byNumber.set(`${vendor}:${attr.number}`, attr);
        break;
      }
      default:
        break;
    }
  }
  return dict;
}

/** Reads /usr/share/freeradius/dictionary.<name> (several names: one dictionary of them all). */
export function readDictionary(...names: string[]): Dictionary {
  const dict: Dictionary = { vendors: new Map(), attributes: new Map(), byNumber: new Map() };
  for (const name of names)
    parseDictionary(readFileSync(`${FREERADIUS_DICTIONARY_DIR}/dictionary.${name}`, 'utf8'), dict);
  return dict;
}
