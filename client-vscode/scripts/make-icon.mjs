// Draws the extension icon (a shield with a check mark) as a 128×128 PNG without any image library:
// shapes are signed-distance tests, 4×4 supersampled for smooth edges, written with zlib.
// Usage: node scripts/make-icon.mjs images/icon.png
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const SIZE = 128;
const SS = 4;
const BORDER = [22, 63, 112];
const FILL = [31, 95, 168];
const MARK = [255, 255, 255];

/** Half-width of the shield at height y (0 outside): straight sides, then a curve down to a point. */
function shieldHalfWidth(y) {
  if (y < 12 || y > 118) return 0;
  if (y < 62) return 44 - 6 * Math.max(0, (20 - y) / 8) ** 2;
  const t = (y - 62) / 56;
  return 44 * Math.cos((t * Math.PI) / 2) ** 0.9;
}

function distToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

const CHECK = [[40, 66], [57, 83], [89, 47]];

function colourAt(x, y) {
  const hw = shieldHalfWidth(y);
  const dx = Math.abs(x - 64);
  if (dx > hw) return null;
  if (Math.min(distToSegment(x, y, CHECK[0], CHECK[1]), distToSegment(x, y, CHECK[1], CHECK[2])) < 7) return MARK;
  const inner = shieldHalfWidth(y - 5) - 6;
  return dx > inner || y < 18 ? BORDER : FILL;
}

const rows = [];
for (let y = 0; y < SIZE; y++) {
  const row = Buffer.alloc(1 + SIZE * 4);
  for (let x = 0; x < SIZE; x++) {
    let r = 0, g = 0, b = 0, a = 0;
    for (let sy = 0; sy < SS; sy++) {
      for (let sx = 0; sx < SS; sx++) {
        const c = colourAt(x + (sx + 0.5) / SS, y + (sy + 0.5) / SS);
        if (!c) continue;
        r += c[0]; g += c[1]; b += c[2]; a += 1;
      }
    }
    const o = 1 + x * 4;
    if (a > 0) {
      row[o] = Math.round(r / a); row[o + 1] = Math.round(g / a); row[o + 2] = Math.round(b / a);
      row[o + 3] = Math.round((255 * a) / (SS * SS));
    }
  }
  rows.push(row);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(SIZE, 0);
ihdr.writeUInt32BE(SIZE, 4);
ihdr[8] = 8; // bit depth
ihdr[9] = 6; // RGBA
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr),
  chunk('IDAT', deflateSync(Buffer.concat(rows), { level: 9 })),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(process.argv[2] ?? 'images/icon.png', png);
