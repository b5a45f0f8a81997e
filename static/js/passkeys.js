// Passkeys on the account page (templates/account.html): a button with
// data-passkey="register" adds one to the signed-in person, data-passkey="signin" signs this
// browser in with one. The server's WebAuthn options come as JSON with base64url byte fields
// (app/accounts/passkeys.py); the browser's answer goes back the same way.
(function () {
  "use strict";

  const page = document.querySelector("[data-passkey-errors]");
  if (!page) return;
  let WORDS = {};
  try { WORDS = JSON.parse(page.dataset.passkeyErrors || "{}"); } catch (e) { WORDS = {}; }

  function fromB64url(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    return bytes.buffer;
  }
  function toB64url(buffer) {
    const bytes = new Uint8Array(buffer);
    let raw = "";
    for (let i = 0; i < bytes.length; i++) raw += String.fromCharCode(bytes[i]);
    return btoa(raw).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function showError(message) {
    const box = document.getElementById("passkey-error");
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
  }

  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = {}; }
    if (!response.ok) {
      const error = (data && data.error) || {};
      throw new Error(error.message || String(response.status));
    }
    return data;
  }

  async function register() {
    const options = await post("/account/passkeys/options");
    options.challenge = fromB64url(options.challenge);
    options.user.id = fromB64url(options.user.id);
    (options.excludeCredentials || []).forEach(function (c) { c.id = fromB64url(c.id); });
    const made = await navigator.credentials.create({ publicKey: options });
    const r = made.response;
    const answer = {
      id: made.id,
      rawId: toB64url(made.rawId),
      type: made.type,
      response: {
        clientDataJSON: toB64url(r.clientDataJSON),
        attestationObject: toB64url(r.attestationObject),
        transports: r.getTransports ? r.getTransports() : [],
      },
      clientExtensionResults: made.getClientExtensionResults(),
      authenticatorAttachment: made.authenticatorAttachment || undefined,
    };
    return post("/account/passkeys", answer);
  }

  async function signIn() {
    const options = await post("/account/signin/passkey/options");
    options.challenge = fromB64url(options.challenge);
    (options.allowCredentials || []).forEach(function (c) { c.id = fromB64url(c.id); });
    const got = await navigator.credentials.get({ publicKey: options });
    const r = got.response;
    const answer = {
      id: got.id,
      rawId: toB64url(got.rawId),
      type: got.type,
      response: {
        clientDataJSON: toB64url(r.clientDataJSON),
        authenticatorData: toB64url(r.authenticatorData),
        signature: toB64url(r.signature),
        userHandle: r.userHandle ? toB64url(r.userHandle) : undefined,
      },
      clientExtensionResults: got.getClientExtensionResults(),
      authenticatorAttachment: got.authenticatorAttachment || undefined,
    };
    return post("/account/signin/passkey", answer);
  }

  document.querySelectorAll("[data-passkey]").forEach(function (button) {
    button.addEventListener("click", async function () {
      if (!window.PublicKeyCredential || !navigator.credentials) {
        showError(WORDS.unsupported || "");
        return;
      }
      button.disabled = true;
      try {
        const done = await (button.dataset.passkey === "register" ? register() : signIn());
        window.location.assign(done.next || "/");
      } catch (e) {
        const cancelled = e && (e.name === "NotAllowedError" || e.name === "AbortError");
        showError(cancelled ? WORDS.cancelled || "" : e.message);
        button.disabled = false;
      }
    });
  });
})();
