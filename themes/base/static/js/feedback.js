/* Reader feedback: page ratings with an optional comment and contact, and comments on code snippets.
   Posts JSON to the endpoint in the widget's data-endpoint; nothing is sent until the reader submits. */
(function () {
  "use strict";
  var T = window.dgT || function (k, en, v) { return v ? en.replace(/\{(\w+)\}/g, function (m, n) { return n in v ? String(v[n]) : m; }) : en; }; // the page language's words (theme-init.js)

  var TIMEOUT_MS = 15000;
  var root = document.querySelector("[data-dg-feedback]");
  if (!root) return;
  var endpoint = root.getAttribute("data-endpoint");
  var pagePath = root.getAttribute("data-path") || location.pathname;
  var uid = 0;

  function send(body) {
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, TIMEOUT_MS) : null;
    return fetch(endpoint, {
      method: "POST",
      mode: "cors",
      credentials: "omit",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: controller ? controller.signal : undefined,
    }).then(function (response) {
      if (response.ok) return response.json();
      return response.json().catch(function () { return {}; }).then(function (data) {
        var error = (data && data.error) || {};
        var message = response.status === 429 ? T("too_many_messages", "Too many messages; please wait a minute and try again.")
          : error.message || T("server_answered", "The server answered {status}.", { status: response.status });
        throw new Error(message);
      });
    }, function () {
      throw new Error(T("feedback_unreachable", "The feedback server could not be reached."));
    }).finally(function () { if (timer) clearTimeout(timer); });
  }

  function setStatus(element, text, failed) {
    element.textContent = text;  // textContent: server messages are never parsed as HTML
    element.classList.toggle("dg-feedback-error", !!failed);
    element.setAttribute("role", failed ? "alert" : "status");
  }

  /* Page rating: a thumb opens the optional comment form (or sends at once when comments are off). */
  function setupRating() {
    var thumbs = root.querySelectorAll(".dg-feedback-thumb");
    var form = root.querySelector(".dg-feedback-form");
    var status = root.querySelector(".dg-feedback-status");
    if (!thumbs.length) return;
    var contextual = root.getAttribute("data-contextual") !== "false" && form;
    var helpful = null;
    var busy = false;

    function submit(comment, contact) {
      if (busy) return;
      busy = true;
      var body = { path: pagePath, source: comment ? "contextual" : "thumbs_only", helpful: helpful };
      if (comment) body.comment = comment;
      if (contact) body.contact = contact;
      setStatus(status, T("sending", "Sending\u2026"), false);
      root.setAttribute("aria-busy", "true");
      send(body).then(function () {
        if (form) form.hidden = true;
        thumbs.forEach(function (b) { b.disabled = true; });
        root.classList.add("dg-feedback-done");
        setStatus(status, T("feedback_thanks", "Thank you for your feedback!"), false);
      }, function (error) {
        setStatus(status, T("feedback_failed", "Your feedback was not sent: {error}", { error: error.message }), true);
      }).finally(function () {
        busy = false;
        root.removeAttribute("aria-busy");
      });
    }

    thumbs.forEach(function (button) {
      button.addEventListener("click", function () {
        helpful = button.getAttribute("data-helpful") === "true";
        thumbs.forEach(function (b) { b.setAttribute("aria-pressed", String(b === button)); });
        if (!contextual) { submit("", ""); return; }
        var label = form.querySelector("label[for='feedback-form-input']");
        label.textContent = label.getAttribute(helpful ? "data-label-helpful" : "data-label-unhelpful");
        form.hidden = false;
        setStatus(status, "", false);
        form.querySelector("textarea").focus();
      });
    });

    if (!contextual) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var comment = form.elements.comment.value;
      var contact = form.elements.contact.value.trim();
      if (contact && !form.elements.contact.checkValidity()) {
        setStatus(status, T("valid_email", "Please enter a valid e-mail address, or leave it empty."), true);
        form.elements.contact.focus();
        return;
      }
      submit(comment.trim() ? comment : "", contact);
    });
    form.querySelector(".dg-feedback-cancel").addEventListener("click", function () {
      form.hidden = true;
      thumbs.forEach(function (b) { b.setAttribute("aria-pressed", "false"); });
      var pressed = root.querySelector(".dg-feedback-thumb[data-helpful='" + String(helpful) + "']");
      helpful = null;
      if (pressed) pressed.focus();
    });
    form.addEventListener("keydown", function (event) {
      if (event.key === "Escape") form.querySelector(".dg-feedback-cancel").click();
    });
  }

  /* Code snippets: a button under every code block opens a small form that sends the code with the comment. */
  function codeBlocks() {
    var blocks = [];
    document.querySelectorAll("[data-lang]").forEach(function (element) {
      if (!element.querySelector("pre") || element.closest("[data-dg-feedback]")) return;
      if (element.parentElement && element.parentElement.closest("[data-lang]")) return;  // outermost only
      blocks.push(element);
    });
    return blocks;
  }

  function setupSnippet(block) {
    var id = "dg-snippet-fb-" + (++uid);
    var first = uid === 1; // Mintlify's ids (#code-snippet-feedback-button, -textarea) on the first block's form
    var filename = block.getAttribute("data-filename") || block.getAttribute("data-title") || "";
    var bar = document.createElement("div");
    bar.className = "dg-snippet-fb";
    var open = document.createElement("button");
    open.type = "button";
    open.className = "dg-snippet-fb-open";
    if (first) open.id = "code-snippet-feedback-button";
    open.setAttribute("aria-expanded", "false");
    open.setAttribute("aria-controls", id);
    open.textContent = T("comment_snippet", "Comment on this snippet");
    if (filename) open.setAttribute("aria-label", T("comment_snippet_named", "Comment on the code snippet {name}", { name: filename }));
    var form = document.createElement("form");
    form.id = id;
    form.className = "dg-snippet-fb-form code-snippet-feedback-form";
    form.hidden = true;
    form.noValidate = true;
    var label = document.createElement("label");
    label.htmlFor = first ? "code-snippet-feedback-textarea" : id + "-comment";
    label.className = "code-snippet-feedback-form-title";
    label.textContent = T("snippet_question", "What is wrong or unclear in this snippet?");
    var text = document.createElement("textarea");
    text.id = label.htmlFor;
    text.className = "code-snippet-feedback-textarea";
    text.name = "comment";
    text.rows = 3;
    text.maxLength = 5000;
    text.required = true;
    var actions = document.createElement("div");
    actions.className = "dg-feedback-actions";
    var sendButton = document.createElement("button");
    sendButton.type = "submit";
    sendButton.className = "code-snippet-feedback-form-submit-button";
    sendButton.textContent = T("send_comment", "Send comment");
    var cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = T("cancel", "Cancel");
    actions.append(sendButton, cancel);
    var status = document.createElement("p");
    status.className = "dg-feedback-status";
    status.setAttribute("role", "status");
    status.setAttribute("aria-live", "polite");
    form.append(label, text, actions);
    bar.append(open, form, status);
    block.appendChild(bar);

    function close() {
      form.hidden = true;
      open.setAttribute("aria-expanded", "false");
      open.focus();
    }
    open.addEventListener("click", function () {
      var opening = form.hidden;
      form.hidden = !opening;
      open.setAttribute("aria-expanded", String(opening));
      if (opening) { setStatus(status, "", false); text.focus(); }
    });
    cancel.addEventListener("click", close);
    form.addEventListener("keydown", function (event) { if (event.key === "Escape") close(); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!text.value.trim()) {
        setStatus(status, T("comment_first", "Please write a comment first."), true);
        text.focus();
        return;
      }
      var pre = block.querySelector("pre");
      var body = { path: pagePath, source: "code_snippet", comment: text.value, code: pre ? pre.textContent : "" };
      var lang = block.getAttribute("data-lang");
      if (lang) body.lang = lang;
      if (filename) body.filename = filename;
      sendButton.disabled = true;
      setStatus(status, T("sending", "Sending\u2026"), false);
      send(body).then(function () {
        form.hidden = true;
        text.value = "";
        open.setAttribute("aria-expanded", "false");
        setStatus(status, T("snippet_thanks", "Thank you! Your comment on this snippet was sent."), false);
        open.focus();
      }, function (error) {
        setStatus(status, T("comment_failed", "Your comment was not sent: {error}", { error: error.message }), true);
      }).finally(function () { sendButton.disabled = false; });
    });
  }

  setupRating();
  if (root.getAttribute("data-code-snippets") !== "false") codeBlocks().forEach(setupSnippet);
})();
