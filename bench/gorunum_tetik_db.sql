-- The view counters' triggers inside PostgreSQL (issue 43): a chat's life (INSERT, accept, a message, close)
-- 1,000 times per round in one function call, triggers on and off alternating for 6 rounds; µs per life.
-- Run on a database bench/gorunum_tetik_bench.py prepared: psql -q -f bench/gorunum_tetik_db.sql $BENCH_DATABASE_URL
\set ON_ERROR_STOP 1
CREATE TEMP TABLE sonuc (tur int, acik bool, us numeric);
CREATE OR REPLACE FUNCTION pg_temp.tur(n int, etiket text) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; yeni bigint; sablon chat_oturum; op bigint;
BEGIN
  SELECT * INTO sablon FROM chat_oturum LIMIT 1;
  SELECT id INTO op FROM tenants_kullanici WHERE email = 'tetik-operator@bench.example';
  t0 := clock_timestamp();
  FOR i IN 1..n LOOP
    sablon.id := nextval(pg_get_serial_sequence('chat_oturum', 'id'));
    sablon.ziyaretci_id := etiket || '-' || i; sablon.durum := 'bekliyor'; sablon.operator_id := NULL;
    sablon.ertelendi_kadar := NULL; sablon.ertelendi_ziyaretci := false;
    INSERT INTO chat_oturum SELECT (sablon).*;
    UPDATE chat_oturum SET durum = 'aktif', operator_id = op WHERE id = sablon.id;
    UPDATE chat_oturum SET son_mesaj = 'Merhaba', okunmamis = 1 WHERE id = sablon.id;
    UPDATE chat_oturum SET durum = 'kapandi' WHERE id = sablon.id;
  END LOOP;
  RETURN extract(epoch FROM clock_timestamp() - t0) * 1e6 / n;
END $$;
SELECT pg_temp.tur(200, 'isinma');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 0, true, pg_temp.tur(1000, 'db01');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 0, false, pg_temp.tur(1000, 'db00');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 1, false, pg_temp.tur(1000, 'db10');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 1, true, pg_temp.tur(1000, 'db11');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 2, true, pg_temp.tur(1000, 'db21');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 2, false, pg_temp.tur(1000, 'db20');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 3, false, pg_temp.tur(1000, 'db30');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 3, true, pg_temp.tur(1000, 'db31');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 4, true, pg_temp.tur(1000, 'db41');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 4, false, pg_temp.tur(1000, 'db40');
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum DISABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 5, false, pg_temp.tur(1000, 'db50');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil;
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
INSERT INTO sonuc SELECT 5, true, pg_temp.tur(1000, 'db51');
ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_ekle_sil; ALTER TABLE chat_oturum ENABLE TRIGGER panel_gorunum_sayaci_guncelle;
SELECT tur, acik, round(us) FROM sonuc ORDER BY tur, acik;
SELECT acik, round(percentile_cont(0.5) WITHIN GROUP (ORDER BY us)) FROM sonuc GROUP BY acik;
