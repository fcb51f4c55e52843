// The door's camera (issue 29): where the browser has the BarcodeDetector API, a button
// starts the camera and a scanned player card (its QR code holds the personal link)
// fills the link field and sends the form, which checks the player in. Without the API
// (or without a camera) the field and the ticks work as before: nothing breaks.
const start = document.getElementById("camera-start");
const video = document.getElementById("camera");
const field = document.getElementById("id_code");
const form = document.getElementById("scan-form");

async function scan() {
  const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
  const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
  video.srcObject = stream;
  video.hidden = false;
  await video.play();
  const tick = async () => {
    try {
      const codes = await detector.detect(video);
      const found = codes.find((c) => /\/me\/[A-Za-z0-9_-]{20,}/.test(c.rawValue));
      if (found) {
        stream.getTracks().forEach((t) => t.stop());
        field.value = found.rawValue;
        form.submit();
        return;
      }
    } catch (_e) { /* a frame the detector could not read: try the next one */ }
    window.setTimeout(tick, 250);
  };
  tick();
}

if (start && "BarcodeDetector" in window && navigator.mediaDevices?.getUserMedia) {
  start.hidden = false;
  start.addEventListener("click", () => {
    start.disabled = true;
    scan().catch(() => { start.disabled = false; video.hidden = true; });
  });
}
if (field) field.focus();
