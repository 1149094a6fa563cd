"""The bare views' table: created by the benchmark with raw SQL (the served checkout has no
migration for it). Imports nothing, so the benchmark can read it without Django set up."""
TABLO = "bench_taban"
TABLO_DDL = (f"CREATE TABLE IF NOT EXISTS {TABLO} (id bigserial PRIMARY KEY, icerik text NOT NULL, "
             "zaman timestamptz NOT NULL DEFAULT now())")
