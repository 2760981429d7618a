# Writes a binary FBX file (7.x) as ASCII FBX, node for node, so the tests have an ASCII file of
# a character they also read as binary (Blender's exporter writes binary only).
# Usage: python3 scripts/fbx-to-ascii.py IN.fbx OUT.fbx
# The binary layout (Blender's io_scene_fbx and the FBX SDK agree on it): a 27-byte header
# ("Kaydara FBX Binary  \0", 0x1a 0x00, the version as u32), then node records: end offset,
# property count, property bytes (u32 each before 7.5, u64 from 7.5), the name's length (u8) and
# name, the properties (a type code and its value; arrays as count, encoding, byte length and the
# data, zlib-compressed when the encoding is 1), the children, and a null record closing a list.
import struct
import sys
import zlib

SCALARS = {'Y': '<h', 'C': '<?', 'I': '<i', 'F': '<f', 'D': '<d', 'L': '<q'}
ARRAYS = {'f': '<f', 'd': '<d', 'l': '<q', 'i': '<i', 'b': '<?'}


def read_nodes(data, at, end, wide):
    nodes = []
    head = '<QQQ' if wide else '<III'
    size = struct.calcsize(head)
    while at < end:
        node_end, count, _ = struct.unpack_from(head, data, at)
        name_len = data[at + size]
        if node_end == 0:
            return nodes, at + size + 1
        name = data[at + size + 1:at + size + 1 + name_len].decode()
        at += size + 1 + name_len
        props = []
        for _ in range(count):
            code = chr(data[at])
            at += 1
            if code in SCALARS:
                fmt = SCALARS[code]
                props.append((code, struct.unpack_from(fmt, data, at)[0]))
                at += struct.calcsize(fmt)
            elif code in ARRAYS:
                n, encoding, length = struct.unpack_from('<III', data, at)
                at += 12
                raw = data[at:at + length]
                at += length
                if encoding == 1:
                    raw = zlib.decompress(raw)
                fmt = ARRAYS[code]
                values = list(struct.unpack_from(f'<{n}{fmt[1]}', raw))
                props.append((code, values))
            elif code in 'SR':
                length = struct.unpack_from('<I', data, at)[0]
                at += 4
                props.append((code, data[at:at + length]))
                at += length
            else:
                raise ValueError(f'unknown property type {code!r} at byte {at}')
        children = []
        if at < node_end:
            children, at = read_nodes(data, at, node_end, wide)
        nodes.append((name, props, children))
        at = node_end
    return nodes, at


def number(v):
    if isinstance(v, bool):
        return 'T' if v else 'F'
    if isinstance(v, float):
        return repr(v)
    return str(v)


def text(code, value):
    if code == 'S':
        # Binary "Name\0\1Class" is ASCII's "Class::Name".
        if b'\x00\x01' in value:
            name, cls = value.split(b'\x00\x01', 1)
            value = cls + b'::' + name
        return '"' + value.decode('utf-8', 'replace').replace('"', '&quot;') + '"'
    if code == 'R':
        return '"' + value.hex() + '"'
    if code == 'C':
        return 'T' if value else 'F'
    return number(value)


def write(nodes, out, depth):
    pad = '\t' * depth
    for name, props, children in nodes:
        arrays = [p for p in props if p[0] in ARRAYS]
        if arrays:
            code, values = arrays[0]
            out.append(f'{pad}{name}: *{len(values)} {{')
            out.append(f'{pad}\ta: ' + ','.join(number(v) for v in values))
            out.append(f'{pad}}}')
            continue
        line = f'{pad}{name}: ' + ', '.join(text(c, v) for c, v in props)
        if children:
            out.append(line + ' {')
            write(children, out, depth + 1)
            out.append(f'{pad}}}')
        else:
            out.append(line)


def main():
    data = open(sys.argv[1], 'rb').read()
    if not data.startswith(b'Kaydara FBX Binary  \x00'):
        sys.exit(f'{sys.argv[1]}: not a binary FBX file')
    version = struct.unpack_from('<I', data, 23)[0]
    nodes, _ = read_nodes(data, 27, len(data), version >= 7500)
    out = [f'; FBX {version // 1000}.{version % 1000 // 100}.0 project file', '']
    write(nodes, out, 0)
    open(sys.argv[2], 'w').write('\n'.join(out) + '\n')


main()
