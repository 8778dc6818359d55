#!/usr/bin/env python3
# Copyright (c) 2026 the hyla authors. SPDX-License-Identifier: BSD-3-Clause
"""Writes a corpus of matrix files for tests/fuzz_drivers.sh: valid .npy and
Matrix Market files of small matrices, files each driver must refuse, and
random mutations of the valid ones. Deterministic for a seed.

Usage: fuzz_corpus.py DIR [--mutations N] [--seed S]

Names tell the runner what to expect:
  ok-MxN[-sym]-...  a valid M-by-N matrix (sym: symmetric): a correct result
                    or a refusal for the driver's own reasons (shape, rank)
  bad-...           malformed or not a real dense matrix: always refused
  mut-...           a random mutation: refused, or a correct result
"""
import argparse
import math
import os
import random
import struct

MM = "%%MatrixMarket matrix"


# --- matrices: lists of columns of floats -------------------------------------

def matrix(m, n, f):
    return [[f(i, j) for i in range(m)] for j in range(n)]


def symmetric(rnd, n):
    a = matrix(n, n, lambda i, j: rnd.gauss(0, 1))
    for j in range(n):
        for i in range(j):
            a[j][i] = a[i][j]
    return a


def bases(rnd):
    """(tag, m, n, symmetric, columns) of the valid matrices, all <= 64."""
    g = lambda i, j: rnd.gauss(0, 1)
    out = []
    for m, n in [(1, 1), (2, 1), (5, 3), (8, 8), (17, 9), (33, 33), (64, 64), (64, 20),
                 (20, 64), (3, 7), (40, 1), (1, 12)]:
        out.append(("gauss", m, n, False, matrix(m, n, g)))
    for n in (1, 2, 6, 31, 64):
        out.append(("symgauss", n, n, True, symmetric(rnd, n)))
    out += [
        ("zero", 4, 4, True, matrix(4, 4, lambda i, j: 0.0)),
        ("zero", 10, 3, False, matrix(10, 3, lambda i, j: 0.0)),
        ("negzero", 5, 5, True, matrix(5, 5, lambda i, j: -0.0)),
        ("identity", 7, 7, True, matrix(7, 7, lambda i, j: float(i == j))),
        ("ones", 6, 6, True, matrix(6, 6, lambda i, j: 1.0)),
        ("diagzero", 6, 6, True, matrix(6, 6, lambda i, j: float(i == j and i % 2))),
        ("hilbert", 12, 12, True, matrix(12, 12, lambda i, j: 1.0 / (i + j + 1))),
        ("integers", 9, 9, False, matrix(9, 9, lambda i, j: float(rnd.randint(-9, 9)))),
        ("tiny", 40, 40, False, matrix(40, 40, lambda i, j: 1e-300 * rnd.gauss(0, 1))),
        ("huge", 40, 40, False, matrix(40, 40, lambda i, j: 1e300 * rnd.gauss(0, 1))),
        ("mixed", 8, 6, False, matrix(8, 6, lambda i, j: rnd.gauss(0, 1) * 10.0 ** (60 * j - 150))),
        ("graded", 16, 16, False, matrix(16, 16, lambda i, j: rnd.gauss(0, 1) * 10.0 ** -j)),
        # Accepted as symmetric (within 100 n eps) though not exactly so.
        ("nearsym", 3, 3, True, matrix(3, 3, lambda i, j: 1e-3 if i == j else
                                       1.0 if (i, j) == (0, 1) else 1 + 2.5e-14 if (i, j) == (1, 0)
                                       else 0.0)),
        # The edges of double's range: subnormal entries; one entry near
        # overflow; a Frobenius norm that overflows though no column's does.
        ("edge-subnormal", 5, 5, False, matrix(5, 5, lambda i, j: 4e-320 * rnd.randint(1, 9))),
        ("edge-spike", 40, 40, False, matrix(40, 40, lambda i, j: 1.4e308 if (i, j) == (3, 34)
                                             else rnd.gauss(0, 1))),
        ("edge-bignorm", 64, 64, False, matrix(64, 64, lambda i, j: 1.5e308 if j < 40 and i == j % 7
                                               else rnd.gauss(0, 1))),
    ]
    spike = symmetric(rnd, 40)
    spike[3][34] = spike[34][3] = 1.2e308
    out.append(("edge-spike", 40, 40, True, spike))
    r1 = [rnd.gauss(0, 1) for _ in range(12)]
    out.append(("rank1", 12, 6, False, matrix(12, 6, lambda i, j: r1[i] * (j + 1))))
    dup = matrix(9, 5, g)
    dup[3] = list(dup[1])
    out.append(("dupcol", 9, 5, False, dup))
    return out


# --- writers ---------------------------------------------------------------------

def npy_bytes(descr, fortran, shape, data, version=1, dict_text=None, hlen=None):
    text = dict_text if dict_text is not None else \
        "{'descr': %s, 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)
    pre = 12 if version >= 2 else 10
    body = text.encode("latin-1")
    total = pre + len(body) + 1
    body += b" " * ((-total) % 64) + b"\n"
    n = len(body) if hlen is None else hlen
    size = struct.pack("<I", n & 0xffffffff) if version >= 2 else struct.pack("<H", n & 0xffff)
    return b"\x93NUMPY" + bytes([version & 255, 0]) + size + body + data


def values(cols, fortran, fmt="<d"):
    m = len(cols[0]) if cols else 0
    seq = [x for c in cols for x in c] if fortran else \
          [cols[j][i] for i in range(m) for j in range(len(cols))]
    return b"".join(struct.pack(fmt, x) for x in seq)


def word(text):
    """text as a file name's part."""
    return "".join(c if c.isalnum() else "_" for c in text).strip("_") or "empty"


def shape_text(m, n):
    return "(%d, %d)" % (m, n)


def number(rnd, x):
    return rnd.choice(["%.17g", "%.17e", "%r"]) % x if x == x else "nan"


def mtx_array(cols, field="real", sym=False, eol="\n", rnd=None, header=None, comments=0):
    m, n = len(cols[0]), len(cols)
    lines = [header or "%s array %s %s" % (MM, field, "symmetric" if sym else "general")]
    lines += ["%% comment %d" % k for k in range(comments)]
    lines.append("%d %d" % (m, n))
    for j in range(n):
        for i in range(j if sym else 0, m):
            x = cols[j][i]
            lines.append("%d" % x if field == "integer" else number(rnd, x))
    return (eol.join(lines) + eol).encode()


# --- the corpus ------------------------------------------------------------------

def valid_files(rnd, tag, m, n, sym, cols):
    """The matrix in a few of the encodings the readers take."""
    name = "ok-%dx%d%s-%s" % (m, n, "-sym" if sym else "", tag)
    fortran = rnd.random() < 0.5
    out = [(name + ("-f.npy" if fortran else "-c.npy"),
            npy_bytes("'<f8'", fortran, shape_text(m, n), values(cols, fortran)))]
    if sym:
        out.append((name + "-symm.mtx", mtx_array(cols, sym=True, rnd=rnd)))
    if not sym or rnd.random() < 0.5:
        out.append((name + ".mtx", mtx_array(cols, rnd=rnd)))
    if tag not in ("tiny", "huge", "mixed") and not tag.startswith("edge") and rnd.random() < 0.4:
        fortran = rnd.random() < 0.5
        out.append((name + "-f4.npy", npy_bytes("'<f4'", fortran, shape_text(m, n),
                                                values(cols, fortran, "<f"))))
    if rnd.random() < 0.2:
        out.append((name + "-v2.npy", npy_bytes("'<f8'", True, shape_text(m, n),
                                                values(cols, True), version=rnd.choice([2, 3]))))
    if tag in ("integers", "zero", "identity", "ones"):
        out.append((name + "-int.mtx", mtx_array(cols, field="integer", rnd=rnd)))
    if rnd.random() < 0.25:
        out.append((name + "-crlf.mtx", mtx_array(cols, eol="\r\n", rnd=rnd, comments=2)))
    if rnd.random() < 0.2:
        upper = "%%MATRIXMARKET MATRIX ARRAY DOUBLE " + ("SYMMETRIC" if sym else "GENERAL")
        out.append((name + "-upper.mtx", mtx_array(cols, sym=sym, rnd=rnd, header=upper,
                                                   comments=1)))
    return out


def bad_npy(rnd):
    """.npy files every reader must refuse."""
    d16 = bytes(128)
    ok = lambda **k: npy_bytes(k.pop("descr", "'<f8'"), k.pop("fortran", False),
                               k.pop("shape", "(4, 4)"), k.pop("data", d16), **k)
    out = []
    for descr in ["'>f8'", "'>f4'", "'<i4'", "'<i8'", "'|u1'", "'|i1'", "'<c16'", "'<c8'",
                  "'<f2'", "'<f16'", "'|b1'", "'<U4'", "'|O'", "'<M8[s]'", "'f8'", "'=f8'",
                  "'|f8'", "'<f8 '", "'<F8'", "'<f8x'", "<f8", "''", "'", "[('a', '<f8')]",
                  "None"]:
        out.append(("bad-descr-%02d-%s.npy" % (len(out), word(descr)),
                    ok(descr=descr, data=bytes(256))))
    for i, fo in enumerate(["Maybe", "true", "1", "0", "Tru", "False_", "'False'", ""]):
        out.append(("bad-fortran-%02d-%s.npy" % (i, word(fo)), ok(fortran=fo)))
    for i, sh in enumerate(["()", "(16,)", "(2, 2, 4)", "(0, 4)", "(4, 0)", "(0, 0)", "(-1, 4)",
                            "(4, -1)", "(2147483648, 2)", "(99999999999, 4)",
                            "(9223372036854775807, 9223372036854775807)",
                            "(18446744073709551616, 1)", "('4', 4)", "(4.0, 4)", "(4 4)",
                            "4, 4", "(4, 4", "[4, 4]", "(4,, 4)", "(, 4)",
                            "(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, "
                            "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)",
                            "(65536, 65536)", "(4, 5)", "(8, 4)", "(5, 4)"]):
        out.append(("bad-shape-%02d.npy" % i, ok(shape=sh)))
    for i, text in enumerate([
            "{'fortran_order': False, 'shape': (4, 4), }",
            "{'descr': '<f8', 'shape': (4, 4), }",
            "{'descr': '<f8', 'fortran_order': False, }",
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), ",
            "'descr': '<f8', 'fortran_order': False, 'shape': (4, 4)",
            "{'descr': '<f8'\x00, 'fortran_order': False, 'shape': (4, 4), }",
            "{'descr': '<f8', 'fortran_order': False, 'shape': (4, 4), } x",
            "{}", ""]):
        out.append(("bad-dict-%02d.npy" % i, ok(dict_text=text)))
    hdr_len = len(ok()) - 128 - 10
    for i, hl in enumerate([0, 1, hdr_len - 1, hdr_len + 1, hdr_len + 64, 65535]):
        out.append(("bad-hlen-%02d.npy" % i, ok(hlen=hl)))
    for i, hl in enumerate([2 ** 20 + 1, 2 ** 31, 2 ** 32 - 1]):
        out.append(("bad-hlen-v2-%02d.npy" % i, ok(hlen=hl, version=2)))
    for v in (0, 4, 255):
        out.append(("bad-version-%d.npy" % v, ok(version=v)))
    good = ok()
    for cut in sorted(set([1, 5, 6, 7, 9, 10, 11, 30, len(good) - 129, len(good) - 128,
                           len(good) - 64, len(good) - 1] + [rnd.randrange(1, len(good))
                                                            for _ in range(4)])):
        out.append(("bad-truncated-%03d.npy" % cut, good[:cut]))
    out.append(("bad-short-data.npy", ok(data=bytes(120))))
    out.append(("bad-no-data.npy", ok(data=b"")))
    out.append(("bad-magic.npy", b"\x93NUMPX" + good[6:]))
    out.append(("bad-magic-only.npy", b"\x93NUMPY"))
    out.append(("bad-byte93.npy", b"\x93"))
    out.append(("bad-nan.npy", ok(data=struct.pack("<d", math.nan) + bytes(120))))
    out.append(("bad-inf.npy", ok(data=bytes(64) + struct.pack("<d", -math.inf) + bytes(56))))
    out.append(("bad-nan-f4.npy", ok(descr="'<f4'", data=bytes(60) + struct.pack("<f", math.nan))))
    out.append(("bad-f4-overflow.npy", ok(descr="'<f4'", data=struct.pack("<f", math.inf) * 16)))
    return out


def bad_mtx(rnd):
    """Matrix Market (or other text) files every reader must refuse."""
    body = "4 4\n" + "".join("%d\n" % k for k in range(1, 17))
    out = []
    for i, banner in enumerate([
            MM + " coordinate real general", MM + " coordinate pattern general",
            MM + " coordinate integer symmetric", MM + " coordinate complex hermitian",
            MM + " coordinate real skew-symmetric", MM + " array complex general",
            MM + " array complex hermitian", MM + " array real skew-symmetric",
            MM + " array integer skew-symmetric", MM + " array pattern general",
            MM + " array real hermitian", MM + " array real", MM + " array",
            "%%MatrixMarket vector array real general",
            "%%MatrixMarket tensor array real general", "%MatrixMarket matrix array real general",
            "%%MatrixMarketmatrix array real general", "%% MatrixMarket matrix array real general",
            "\ufeff%%MatrixMarket matrix array real general", "MatrixMarket matrix array real general",
            MM + " array real generalized", MM + " array real symmetric-ish",
            MM + " array real Symmetric\x00", MM + " array unsigned general"]):
        content = banner + "\n" + body
        if "coordinate" in banner:
            content = banner + "\n4 4 3\n1 1 1.5\n2 3 -2\n4 4 7\n"
            if "pattern" in banner:
                content = banner + "\n4 4 3\n1 1\n2 3\n4 4\n"
            if "complex" in banner:
                content = banner + "\n4 4 2\n1 1 1 0\n3 2 2 1\n"
        elif "complex" in banner:
            content = banner + "\n2 2\n" + "1 0\n2 1\n2 -1\n4 0\n"
        elif "skew" in banner:
            content = banner + "\n3 3\n1\n2\n3\n"
        out.append(("bad-banner-%02d.mtx" % i, content.encode("utf-8", "surrogatepass")))
    g = MM + " array real general\n"
    for i, size in enumerate(["", "4", "4 4 16", "0 4", "4 0", "-4 4", "4 -4", "2147483648 1",
                              "99999999999 1", "99999999999999999999 1", "4.0 4", "0x4 4",
                              "4 4x", "4\t4junk", "% only a comment", "four four", "1e2 1",
                              "4 4 4 4"]):
        out.append(("bad-size-%02d.mtx" % i, (g + size + "\n" + "".join(
            "%d\n" % k for k in range(16))).encode()))
    for i, data in enumerate([
            "1\n2\n3\n", "1\n2\n3\n4\n5\n", "1\n2\nthree\n4\n", "1\n2\nnan\n4\n",
            "1\ninf\n3\n4\n", "1\n-Infinity\n3\n4\n", "1\n1e400\n3\n4\n", "1\n2\n3\n-1e309\n",
            "1\n2\n3\n4,\n", "1,2\n3\n4\n", "1\n2\n3\n4\n%\n5\n", "1\n2\n3\n" + "9" * 200 + "\n",
            "1\n2\n3\n" + "1" + "0" * 126 + "x\n", "1 2 3 4 x\n", "1\n2\n3\n\x004\n",
            "1\n2\n3\n4\x00\n", "1\n2\n3\n0x1p-3q\n", "1\n2\n3\n--4\n", "1\n2\n3\n4e\n",
            "1\n2\n3\n.\n", "1\n2\n3\n4\nfoo\n", "\n\n\n", "1\n2\n3\n4 %% trailing\n5\n",
            "1\n2\n3\nnan(0x1)\n"]):
        out.append(("bad-data-%02d.mtx" % i, (g + "2 2\n" + data).encode("latin-1")))
    sym = MM + " array real symmetric\n"
    out += [
        ("bad-sym-rect.mtx", (sym + "2 3\n1\n2\n3\n4\n5\n6\n").encode()),
        ("bad-sym-full.mtx", (sym + "2 2\n1\n2\n2\n4\n").encode()),
        ("bad-sym-short.mtx", (sym + "3 3\n1\n2\n3\n4\n").encode()),
        ("bad-sym-nan.mtx", (sym + "2 2\n1\nnan\n4\n").encode()),
        ("bad-empty.mtx", b""),
        ("bad-newline.mtx", b"\n"),
        ("bad-crlf-only.mtx", b"\r\n\r\n"),
        ("bad-banner-only.mtx", (MM + " array real general").encode()),
        ("bad-banner-nl.mtx", (MM + " array real general\n").encode()),
        ("bad-text.npy", b"hello\n"),
        ("bad-zeros.mtx", bytes(4096)),
        ("bad-long-line.mtx", (MM + " array real general" + " " * 300 + "x\n2 2\n1\n2\n3\n4\n")
         .encode()),
        ("bad-long-comment.mtx", (MM + " array real general %" + "c" * 400 + "\n2 2\n1\n2\n3\n4\n")
         .encode()),
        ("bad-huge-claim.mtx", (g + "46341 46341\n1\n").encode()),
        ("bad-huge-sym-claim.mtx", (sym + "65536 65536\n1\n2\n").encode()),
        ("bad-random.bin", bytes(rnd.randrange(256) for _ in range(512))),
        ("bad-random93.npy", b"\x93" + bytes(rnd.randrange(256) for _ in range(300))),
        ("bad-random-text.mtx", "".join(rnd.choice("0123456789 .-+eE\n%") for _ in range(400))
         .encode()),
    ]
    return out


def odd_files(rnd):
    """Unusual files the readers take (or may refuse): either is fine, a
    crash or a wrong result is not. The matrix is 2-by-2 [1 3; 2 4]."""
    g = MM + " array real general\n"
    f8 = lambda **k: npy_bytes(k.pop("descr", "'<f8'"), k.pop("fortran", True),
                               k.pop("shape", "(2, 2)"), struct.pack("<4d", 1, 2, 3, 4), **k)
    texts = [
        ("banner-extra-token", MM + " array real general extra\n2 2\n1\n2\n3\n4\n"),
        ("size-plus-signs", g + "+2 +2\n1\n2\n3\n4\n"),
        ("numbers-odd-forms", g + "2 2\n+1.\n.2e1\n0x1.8p1\n4E+00\n"),
        ("tabs-and-blank-lines", g + "\n\n2\t2\n\n1\t2\n\n3 4\n\n"),
        ("comments-between-values", g + "% a\n2 2\n%b\n1\n% c\n2\n3\n4\n% end\n"),
        ("no-final-newline", g + "2 2\n1\n2\n3\n4"),
        ("cr-only-line-ends", (g + "2 2\n1\n2\n3\n4\n").replace("\n", "\r")),
        ("trailing-spaces", g.replace("\n", "   \n") + "2 2  \n 1 \n 2\n3 \n4   \n"),
        ("underflow-to-zero", g + "2 2\n1\n1e-400\n3\n4\n"),
    ]
    out = [("odd-%s.mtx" % name, text.encode()) for name, text in texts]
    out += [
        ("odd-descr-trailing-dot.npy", f8(descr="'<f8'.")),
        ("odd-dict-two-braces.npy", f8(dict_text="{'descr': '<f8', 'fortran_order': True, "
                                                 "'shape': (2, 2), }}")),
        ("odd-shape-trailing-junk.npy", f8(shape="(2, 2, )x")),
        ("odd-keys-reordered.npy", f8(dict_text="{'shape': (2, 2), 'fortran_order': True, "
                                                "'descr': '<f8'}")),
        ("odd-extra-data.npy", f8() + bytes(24)),
        ("odd-version3.npy", f8(version=3)),
    ]
    return out


def mutate(rnd, data):
    """One random mutation of a file's bytes, and its name."""
    kind = rnd.choice(["cut", "flip", "flip", "insert", "delete", "dup", "digit", "crlf", "sign"])
    b = bytearray(data)
    if not b:
        return kind, bytes(b)
    at = rnd.randrange(len(b))
    if kind == "cut":
        del b[at:]
    elif kind == "flip":
        for _ in range(rnd.randint(1, 4)):
            k = rnd.randrange(min(len(b), 160)) if rnd.random() < 0.6 else rnd.randrange(len(b))
            b[k] = b[k] ^ (1 << rnd.randrange(8)) if rnd.random() < 0.5 else rnd.randrange(256)
    elif kind == "insert":
        b[at:at] = bytes(rnd.choice([b" ", b"\n", b"0", b"-", b"%", b"\x00", b"9999", b"nan",
                                     b"\r", b"e", b","]))
    elif kind == "delete":
        del b[at:at + rnd.randint(1, 16)]
    elif kind == "dup":
        b[at:at] = b[at:at + rnd.randint(1, 32)]
    elif kind == "digit":
        digits = [k for k, c in enumerate(b[:200]) if 48 <= c <= 57]
        if digits:
            k = rnd.choice(digits)
            b[k:k + 1] = rnd.choice([b"9", b"0", b"99999999", b"-1", b"4294967297", b"1"])
    elif kind == "crlf":
        b = bytearray(bytes(b).replace(b"\n", b"\r\n"))
    elif kind == "sign":
        b[at:at] = b"-"
    return kind, bytes(b)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("--mutations", type=int, default=100, help="random mutations (100)")
    ap.add_argument("--seed", type=int, default=20261125)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    files = []
    for tag, m, n, sym, cols in bases(rnd):
        files += valid_files(rnd, tag, m, n, sym, cols)
    valid = list(files)
    files += bad_npy(rnd) + bad_mtx(rnd) + odd_files(rnd)
    for k in range(args.mutations):
        name, data = rnd.choice(valid)
        kind, data = mutate(rnd, data)
        stem, ext = os.path.splitext(name)
        files.append(("mut-%04d-%s-%s%s" % (k, kind, stem[3:], ext), data))
    os.makedirs(args.dir, exist_ok=True)
    for name in os.listdir(args.dir):  # a fresh corpus, whatever was there
        path = os.path.join(args.dir, name)
        if os.path.isfile(path):
            os.remove(path)
    names = set()
    for name, data in files:
        assert name not in names, name
        names.add(name)
        with open(os.path.join(args.dir, name), "wb") as f:
            f.write(data)
    os.makedirs(os.path.join(args.dir, "bad-directory.npy"), exist_ok=True)
    print("%d files in %s" % (len(files) + 1, args.dir))


if __name__ == "__main__":
    main()
