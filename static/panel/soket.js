// The operator socket of CONTRACT 11: push only. The first frame is `kimlik` with a short-lived
// ticket (the console never holds its long-lived token); reconnects with backoff; `hazir`
// (first connect or a reconnect) is where the caller fills the gap by REST.
export class OperatorSoketi {
  constructor({ biletAl, olay, durum }) {
    this.biletAl = biletAl;
    this.olay = olay;       // (tip, data) for every server frame
    this.durum = durum;     // (acik: boolean) whenever the socket opens (hazir) or drops
    this.ws = null;
    this.bekleme = 1000;
    this.kapatildi = false;
    this.zamanlayici = null;
    this.hazir = false;
  }

  async baglan() {
    if (this.kapatildi) return;
    let bilet;
    try {
      bilet = (await this.biletAl()).token;
    } catch {
      return this.yenidenDene();
    }
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/v1/operator/`;
    let ws;
    try { ws = new WebSocket(url); } catch { return this.yenidenDene(); }
    this.ws = ws;
    ws.onopen = () => ws.send(JSON.stringify({ tip: "kimlik", data: { token: bilet } }));
    ws.onmessage = (e) => {
      let cerceve;
      try { cerceve = JSON.parse(e.data); } catch { return; }
      if (!cerceve || typeof cerceve.tip !== "string") return;
      if (cerceve.tip === "hazir") {
        this.hazir = true;
        this.bekleme = 1000;
        this.durum(true);
      }
      this.olay(cerceve.tip, cerceve.data || {});
    };
    ws.onclose = () => {
      const hazirdi = this.hazir;
      this.hazir = false;
      this.ws = null;
      if (hazirdi) this.durum(false);
      this.yenidenDene();
    };
    ws.onerror = () => {};
  }

  yenidenDene() {
    if (this.kapatildi) return;
    clearTimeout(this.zamanlayici);
    const bekle = this.bekleme * (0.75 + Math.random() / 2);
    this.bekleme = Math.min(this.bekleme * 2, 30000);
    this.zamanlayici = setTimeout(() => this.baglan(), bekle);
  }

  gonder(tip, data) {
    if (this.ws && this.hazir && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ tip, data }));
  }

  kapat() {
    this.kapatildi = true;
    clearTimeout(this.zamanlayici);
    if (this.ws) this.ws.close();
  }
}
