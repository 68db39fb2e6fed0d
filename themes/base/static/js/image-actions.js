// Image actions: copy and download buttons over <img data-actions="copy download"> (Mintlify's `actions`).
(() => {
  const T = window.dgT || ((k, en, v) => (v ? en.replace(/\{(\w+)\}/g, (m, n) => (n in v ? String(v[n]) : m)) : en)); // the page language's words (theme-init.js)
  const ICONS = {
    copy: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><rect x="9" y="9" width="13" height="13" rx="2"/><path d="M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1"/></svg>',
    download: '<svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M12 3v12"/><path d="m7 10 5 5 5-5"/><path d="M5 21h14"/></svg>',
  };
  const LABELS = { copy: T("copy_image", "Copy image"), download: T("download_image", "Download image") };

  async function pngBlob(img) {
    const response = await fetch(img.currentSrc || img.src);
    const blob = await response.blob();
    if (blob.type === "image/png") return blob;
    const canvas = document.createElement("canvas");
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    canvas.getContext("2d").drawImage(img, 0, 0);
    return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error("no image"))), "image/png"));
  }

  function fileName(img) {
    const path = new URL(img.currentSrc || img.src, location.href).pathname;
    return decodeURIComponent(path.split("/").pop() || "image");
  }

  async function act(action, img, button) {
    try {
      if (action === "copy") {
        const blob = await pngBlob(img);
        await navigator.clipboard.write([new ClipboardItem({ [blob.type]: blob })]);
      } else {
        const link = document.createElement("a");
        link.href = img.currentSrc || img.src;
        link.download = fileName(img);
        document.body.appendChild(link);
        link.click();
        link.remove();
      }
      button.classList.add("dg-done");
      setTimeout(() => button.classList.remove("dg-done"), 1500);
    } catch {
      button.classList.add("dg-failed");
      setTimeout(() => button.classList.remove("dg-failed"), 1500);
    }
  }

  for (const img of document.querySelectorAll("img[data-actions]")) {
    if (img.parentElement && img.parentElement.classList.contains("dg-image-actions")) continue;
    const wrap = document.createElement("span");
    wrap.className = "dg-image-actions";
    wrap.dataset.placement = img.dataset.actionsPlacement || "bottom-center";
    img.replaceWith(wrap);
    wrap.appendChild(img);
    const bar = document.createElement("span");
    bar.className = "dg-image-action-bar";
    for (const action of img.dataset.actions.split(" ")) {
      if (!ICONS[action]) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "dg-image-action";
      button.dataset.action = action;
      button.setAttribute("aria-label", LABELS[action]);
      button.title = LABELS[action];
      button.innerHTML = ICONS[action];
      button.addEventListener("click", (event) => {
        event.preventDefault();
        event.stopPropagation(); // not the zoom of a clickable image
        act(action, img, button);
      });
      bar.appendChild(button);
    }
    wrap.appendChild(bar);
  }
})();
