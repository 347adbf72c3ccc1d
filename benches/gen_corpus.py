#!/usr/bin/env python3
"""Writes a corpus of Parquet files that exercise every encoding, type, nullability,
page version and nesting shape, with several independent writers.

usage: python3 benches/gen_corpus.py OUTDIR [--seed N] [--writers pyarrow,duckdb,fastparquet,polars]
       [--rows N] [--big]
--big writes the large files used for throughput comparisons instead of the small corpus
(BENCHMARKS.md: python3 benches/gen_corpus.py /tmp/big --big --rows 4000000).
Needs pyarrow; --big also numpy; the writers duckdb, fastparquet (with pandas and numpy) and polars
their own packages.
"""
import argparse, os, random, string, datetime, decimal

import pyarrow as pa
import pyarrow.parquet as pq


def columns(rng, n, null_frac):
    """Named pyarrow arrays covering the physical and logical types."""
    def maybe_null(values):
        if null_frac == 0:
            return values
        return [None if rng.random() < null_frac else v for v in values]

    base = 1_600_000_000
    sorted_ts = sorted(base + rng.randrange(0, 10_000_000) for _ in range(n))
    i32_small = [rng.randrange(-50, 50) for _ in range(n)]
    i32_full = [rng.choice([rng.randrange(-2**31, 2**31), -2**31, 2**31 - 1, 0]) for _ in range(n)]
    i64_full = [rng.choice([rng.randrange(-2**63, 2**63), -2**63, 2**63 - 1, 0]) for _ in range(n)]
    i64_sorted = [v * 1000 + rng.randrange(0, 7) for v in sorted_ts]
    f64_smooth = [20.0 + 0.01 * i + rng.random() * 0.001 for i in range(n)]
    specials = [float('nan'), float('inf'), float('-inf'), -0.0, 0.0, 5e-324, 1.7976931348623157e308]
    f64_wild = [rng.choice(specials) if rng.random() < 0.05 else rng.uniform(-1e9, 1e9) for _ in range(n)]
    f32_vals = [round(rng.uniform(-1000, 1000), 3) for _ in range(n)]
    bools_random = [rng.random() < 0.5 for _ in range(n)]
    bools_runs = [(i // 97) % 3 == 0 for i in range(n)]
    hosts = ['example.com', 'data.example.org', 'cdn.example.net', 'api.example.io']
    urls = sorted(f"https://{rng.choice(hosts)}/path/{rng.randrange(0, 5000):05d}/item?id={rng.randrange(0, 10**6)}" for _ in range(n))
    words = [''.join(rng.choice(string.ascii_letters) for _ in range(rng.randrange(0, 12))) for _ in range(n)]
    unicode = [rng.choice(['', 'é', '日本語', 'Ünïcødé ✓', '🦀 crab', 'a' * rng.randrange(0, 40)]) for _ in range(n)]
    low_card = [rng.choice(['red', 'green', 'blue', 'cyan', 'magenta']) for _ in range(n)]
    binary = [bytes(rng.randrange(0, 256) for _ in range(rng.randrange(0, 20))) for _ in range(n)]
    uuids = [bytes(rng.randrange(0, 256) for _ in range(16)) for _ in range(n)]
    dec9 = [decimal.Decimal(rng.randrange(-10**8, 10**8)).scaleb(-2) for _ in range(n)]
    dec18 = [decimal.Decimal(rng.randrange(-10**17, 10**17)).scaleb(-3) for _ in range(n)]
    dec38 = [decimal.Decimal(rng.randrange(-10**37, 10**37)).scaleb(-10) for _ in range(n)]
    dates = [datetime.date(1970, 1, 1) + datetime.timedelta(days=rng.randrange(-20000, 40000)) for _ in range(n)]
    lists = [None if rng.random() < 0.1 else [rng.randrange(0, 1000) if rng.random() > 0.1 else None
                                              for _ in range(rng.randrange(0, 5))] for _ in range(n)]
    nested = [[[rng.choice(words) for _ in range(rng.randrange(0, 3))] for _ in range(rng.randrange(0, 3))] for _ in range(n)]
    structs = [None if rng.random() < 0.1 else {'x': rng.randrange(0, 100) if rng.random() > 0.2 else None,
                                                'tags': [rng.choice(low_card) for _ in range(rng.randrange(0, 3))]}
               for _ in range(n)]
    maps = [[(rng.choice(low_card), rng.randrange(0, 100)) for _ in range(rng.randrange(0, 3))] for _ in range(n)]

    cols = {
        'i32_small': pa.array(maybe_null(i32_small), pa.int32()),
        'i32_full': pa.array(maybe_null(i32_full), pa.int32()),
        'i64_full': pa.array(maybe_null(i64_full), pa.int64()),
        'i64_sorted': pa.array(maybe_null(i64_sorted), pa.int64()),
        'i8': pa.array(maybe_null([v % 128 for v in i32_small]), pa.int8()),
        'u16': pa.array(maybe_null([v % 65536 for v in i32_full]), pa.uint16()),
        'u32': pa.array(maybe_null([v % 2**32 for v in i32_full]), pa.uint32()),
        'u64': pa.array(maybe_null([v % 2**64 for v in i64_full]), pa.uint64()),
        'f32': pa.array(maybe_null(f32_vals), pa.float32()),
        'f64_smooth': pa.array(maybe_null(f64_smooth), pa.float64()),
        'f64_wild': pa.array(maybe_null(f64_wild), pa.float64()),
        'b_random': pa.array(maybe_null(bools_random), pa.bool_()),
        'b_runs': pa.array(maybe_null(bools_runs), pa.bool_()),
        's_urls': pa.array(maybe_null(urls), pa.string()),
        's_words': pa.array(maybe_null(words), pa.string()),
        's_unicode': pa.array(maybe_null(unicode), pa.string()),
        's_lowcard': pa.array(maybe_null(low_card), pa.string()),
        'bin': pa.array(maybe_null(binary), pa.binary()),
        'uuid': pa.array(maybe_null(uuids), pa.binary(16)),
        'dec9': pa.array(maybe_null(dec9), pa.decimal128(9, 2)),
        'dec18': pa.array(maybe_null(dec18), pa.decimal128(18, 3)),
        'dec38': pa.array(maybe_null(dec38), pa.decimal128(38, 10)),
        'date': pa.array(maybe_null(dates), pa.date32()),
        'ts_us': pa.array(maybe_null([v * 1_000_000 for v in sorted_ts]), pa.timestamp('us', tz='UTC')),
        'ts_ms': pa.array(maybe_null([v * 1000 for v in sorted_ts]), pa.timestamp('ms')),
        'list_i32': pa.array(lists, pa.list_(pa.int32())),
        'list_list_str': pa.array(nested, pa.list_(pa.list_(pa.string()))),
        'struct': pa.array(structs, pa.struct([('x', pa.int32()), ('tags', pa.list_(pa.string()))])),
        'map': pa.array(maps, pa.map_(pa.string(), pa.int32())),
    }
    return cols


ENCODINGS_BY_COLUMN = {
    'DELTA_BINARY_PACKED': ['i32_small', 'i32_full', 'i64_full', 'i64_sorted', 'i8', 'u16', 'u32', 'u64', 'dec9', 'dec18', 'date', 'ts_us', 'ts_ms'],
    'BYTE_STREAM_SPLIT': ['f32', 'f64_smooth', 'f64_wild', 'i32_small', 'i32_full', 'i64_full', 'i64_sorted', 'uuid', 'dec38', 'dec9', 'dec18'],
    'DELTA_LENGTH_BYTE_ARRAY': ['s_urls', 's_words', 's_unicode', 's_lowcard', 'bin'],
    'DELTA_BYTE_ARRAY': ['s_urls', 's_words', 's_unicode', 's_lowcard', 'bin', 'uuid', 'dec38'],
    'PLAIN': None,  # every column
}


def write_pyarrow(out, rng, rows):
    for null_frac in (0.0, 0.15, 1.0):
        cols = columns(rng, rows, null_frac)
        flat = {k: v for k, v in cols.items() if not isinstance(v.type, (pa.ListType, pa.StructType, pa.MapType))}
        tag = {0.0: 'req', 0.15: 'opt', 1.0: 'allnull'}[null_frac]
        for page_version in ('1.0', '2.0'):
            pv = 'v1' if page_version == '1.0' else 'v2'
            for enc, names in ENCODINGS_BY_COLUMN.items():
                sel = flat if names is None else {k: flat[k] for k in names}
                table = pa.table(sel)
                if null_frac == 0.0:
                    table = table.cast(pa.schema([pa.field(f.name, f.type, nullable=False) for f in table.schema]))
                pq.write_table(table, os.path.join(out, f'pyarrow_{enc.lower()}_{tag}_{pv}.parquet'),
                               use_dictionary=False, column_encoding=enc, data_page_version=page_version,
                               compression='none', data_page_size=4096, write_statistics=False,
                               store_decimal_as_integer=True)
            # dictionary everywhere, small dictionary page limit forces fallback to PLAIN mid-chunk
            table = pa.table(cols)
            pq.write_table(table, os.path.join(out, f'pyarrow_dict_{tag}_{pv}.parquet'),
                           use_dictionary=True, data_page_version=page_version, compression='snappy',
                           data_page_size=2048, dictionary_pagesize_limit=1024, row_group_size=max(1, rows // 3))
            pq.write_table(table, os.path.join(out, f'pyarrow_dictfull_{tag}_{pv}.parquet'),
                           use_dictionary=True, data_page_version=page_version, compression='zstd')
    # arrow dictionary type read back as dictionary; large types; int96
    rng2 = random.Random(rng.random())
    n = rows
    t = pa.table({
        'dict_str': pa.array([rng2.choice(['x', 'yy', 'zzz', None]) for _ in range(n)]).dictionary_encode(),
        'large_str': pa.array([rng2.choice(['a', 'bb', None, 'ccc' * 10]) for _ in range(n)], pa.large_string()),
        'large_bin': pa.array([rng2.choice([b'\x00', b'\xff\xfe', None]) for _ in range(n)], pa.large_binary()),
        'f16': pa.array([None if rng2.random() < 0.1 else rng2.uniform(-100, 100) for _ in range(n)], pa.float32()).cast(pa.float16()),
        'ts_ns': pa.array([1_600_000_000_000_000_000 + rng2.randrange(0, 10**15) for _ in range(n)], pa.timestamp('ns')),
    })
    pq.write_table(t, os.path.join(out, 'pyarrow_arrowtypes.parquet'), compression='gzip')
    pq.write_table(t.select(['ts_ns']), os.path.join(out, 'pyarrow_int96.parquet'), use_deprecated_int96_timestamps=True,
                   compression='lz4')
    pq.write_table(t.select(['large_str', 'ts_ns']), os.path.join(out, 'pyarrow_brotli_v2.parquet'), compression='brotli',
                   data_page_version='2.0')


def write_duckdb(out, rng, rows):
    import duckdb
    con = duckdb.connect()
    seed = rng.random() * 0.9
    con.execute(f"select setseed({seed})")
    con.execute(f"""
        create table t as select
          i::integer as i32_seq,
          (random() * 1000)::integer as i32_small,
          (random() * 9e18 - 4.5e18)::bigint as i64_full,
          (1600000000000 + i * 1000 + (random()*5)::int)::bigint as i64_sorted,
          case when random() < 0.2 then null else (random() * 1e6)::double end as f64,
          (random() * 100)::float as f32,
          random() < 0.3 as b,
          case when random() < 0.1 then null else 'https://example.com/item/' || lpad((i // 3)::varchar, 8, '0') end as s_urls,
          ['alpha','beta','gamma','delta'][1 + (random()*3)::int] as s_lowcard,
          (random() * 1000000)::decimal(18, 3) as dec18,
          (random() * 1000)::decimal(9, 2) as dec9,
          date '2000-01-01' + (random() * 9000)::int as d,
          timestamp '2020-01-01' + to_microseconds((random() * 1e12)::bigint) as ts,
          uuid() as u,
          case when random() < 0.2 then null else [ (random()*10)::int for x in range((random()*4)::int) ] end as l,
          {{'a': (random()*10)::int, 'b': 'k' || (random()*5)::int}} as st
        from range({rows}) r(i)
    """)
    for version in ('V1', 'V2'):
        for codec in ('uncompressed', 'snappy', 'zstd'):
            path = os.path.join(out, f'duckdb_{version.lower()}_{codec}.parquet')
            con.execute(f"copy t to '{path}' (format parquet, parquet_version {version}, compression {codec}, row_group_size {max(2048, rows // 2)})")


def write_fastparquet(out, rng, rows):
    import pandas as pd, numpy as np, fastparquet
    r = np.random.default_rng(int(rng.random() * 2**32))
    df = pd.DataFrame({
        'i32': r.integers(-1000, 1000, rows).astype('int32'),
        'i64': r.integers(-2**62, 2**62, rows).astype('int64'),
        'f64': r.normal(0, 1, rows),
        'f32': r.normal(0, 1, rows).astype('float32'),
        'b': r.random(rows) < 0.5,
        's': pd.Series([f"name-{v}" for v in r.integers(0, 50, rows)]),
        's_opt': pd.Series([None if v < 10 else f"v{v}" for v in r.integers(0, 100, rows)]),
        'ts': pd.to_datetime(r.integers(1_500_000_000, 1_700_000_000, rows), unit='s'),
    })
    fastparquet.write(os.path.join(out, 'fastparquet_plain.parquet'), df, compression=None)
    fastparquet.write(os.path.join(out, 'fastparquet_dict.parquet'), df, compression='SNAPPY',
                      object_encoding='utf8', fixed_text=None, has_nulls=True, row_group_offsets=max(1, rows // 2))
    fastparquet.write(os.path.join(out, 'fastparquet_cat.parquet'), df.assign(s=df['s'].astype('category')), compression='GZIP')


def write_polars(out, rng, rows):
    import polars as pl
    r = random.Random(rng.random())
    df = pl.DataFrame({
        'i32': pl.Series([r.randrange(-1000, 1000) for _ in range(rows)], dtype=pl.Int32),
        'i64': pl.Series([None if r.random() < 0.1 else r.randrange(-2**62, 2**62) for _ in range(rows)], dtype=pl.Int64),
        'f64': pl.Series([r.random() for _ in range(rows)], dtype=pl.Float64),
        'b': pl.Series([r.random() < 0.5 for _ in range(rows)], dtype=pl.Boolean),
        's': pl.Series([None if r.random() < 0.1 else f"polars-{r.randrange(0, 300)}" for _ in range(rows)], dtype=pl.Utf8),
        'cat': pl.Series([r.choice(['lo', 'mid', 'hi']) for _ in range(rows)], dtype=pl.Categorical),
        'l': pl.Series([[r.randrange(0, 9) for _ in range(r.randrange(0, 4))] for _ in range(rows)], dtype=pl.List(pl.Int64)),
    })
    for codec in ('uncompressed', 'zstd', 'lz4'):
        df.write_parquet(os.path.join(out, f'polars_{codec}.parquet'), compression=codec, row_group_size=max(1000, rows // 2))
    df.write_parquet(os.path.join(out, 'polars_nodict.parquet'), compression='uncompressed', use_pyarrow=False,
                     statistics=False)


def write_big(out, rng, rows):
    """Large single-type files for throughput: one per encoding family, uncompressed."""
    import numpy as np
    r = np.random.default_rng(int(rng.random() * 2**32))
    sorted_i64 = np.cumsum(r.integers(0, 1000, rows)).astype('int64')
    small_i32 = r.integers(0, 1000, rows).astype('int32')
    f64 = np.cumsum(r.normal(0, 1, rows))
    lowcard = np.array(['red', 'green', 'blue', 'cyan', 'magenta', 'yellow', 'black', 'white'])[r.integers(0, 8, rows)]
    urls = np.char.add('https://example.com/a/', np.sort(r.integers(0, 10**9, rows)).astype(str))
    opt = pa.array(small_i32, mask=r.random(rows) < 0.3)
    specs = {
        'big_plain_i32': (pa.table({'v': small_i32}), dict(use_dictionary=False, column_encoding='PLAIN')),
        'big_dict_i32': (pa.table({'v': small_i32}), dict(use_dictionary=True)),
        'big_delta_i64': (pa.table({'v': sorted_i64}), dict(use_dictionary=False, column_encoding='DELTA_BINARY_PACKED')),
        'big_bss_f64': (pa.table({'v': f64}), dict(use_dictionary=False, column_encoding='BYTE_STREAM_SPLIT')),
        'big_plain_f64': (pa.table({'v': f64}), dict(use_dictionary=False, column_encoding='PLAIN')),
        'big_dict_str': (pa.table({'v': lowcard}), dict(use_dictionary=True)),
        'big_dlba_str': (pa.table({'v': urls}), dict(use_dictionary=False, column_encoding='DELTA_LENGTH_BYTE_ARRAY')),
        'big_dba_str': (pa.table({'v': urls}), dict(use_dictionary=False, column_encoding='DELTA_BYTE_ARRAY')),
        'big_plain_str': (pa.table({'v': urls}), dict(use_dictionary=False, column_encoding='PLAIN')),
        'big_opt_i32': (pa.table({'v': opt}), dict(use_dictionary=False, column_encoding='PLAIN')),
        'big_bool': (pa.table({'v': r.random(rows) < 0.5}), dict(use_dictionary=False)),
    }
    for name, (table, kw) in specs.items():
        pq.write_table(table, os.path.join(out, name + '.parquet'), compression='none', data_page_version='2.0',
                       write_statistics=False, **kw)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--seed', type=int, default=20261121)
    ap.add_argument('--writers', default='pyarrow,duckdb,fastparquet,polars')
    ap.add_argument('--rows', type=int, default=3000)
    ap.add_argument('--big', action='store_true')
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    rng = random.Random(a.seed)
    if a.big:
        write_big(a.out, rng, a.rows)
        return
    for w in a.writers.split(','):
        globals()['write_' + w](a.out, rng, a.rows)


if __name__ == '__main__':
    main()
