/*
 * The hotspot login page's script (served as /hotspot/login.js; the page is server/modules/hotspot/page.ts).
 * Plain browser JavaScript, no build step: it runs on whatever phone joins the Wi-Fi.
 *
 * On submit: the code is normalised as the portal stores it (upper case, no spaces or dashes) and sent as the
 * user name; the password is the code itself (PAP), or — when the router sent chap-id and chap-challenge — the
 * hex MD5 of chap-id + code + chap-challenge as bytes, what MikroTik's own login.html computes with its md5.js
 * (hexMD5('$(chap-id)' + password + '$(chap-challenge)'), the octal escapes read by the JavaScript parser as one
 * character per byte). The MD5 is js-md5's (window.md5, /hotspot/md5.min.js), given the bytes.
 */
(function () {
  'use strict';

  /** MikroTik's "\371\015..." (octal escapes, maybe plain characters between them) as the bytes they stand for. */
  function octets(text) {
    var bytes = [];
    var i = 0;
    while (i < text.length) {
      var octal = /^\\([0-7]{1,3})/.exec(text.slice(i));
      if (octal) {
        bytes.push(parseInt(octal[1], 8) & 255);
        i += octal[0].length;
      } else {
        bytes.push(text.charCodeAt(i) & 255);
        i += 1;
      }
    }
    return bytes;
  }

  function normalise(code) {
    return code.toUpperCase().replace(/[\s-]/g, '');
  }

  var form = document.getElementById('hotspot-login');
  if (!form) return;
  var chapId = form.getAttribute('data-chap-id') || '';
  var chapChallenge = form.getAttribute('data-chap-challenge') || '';

  form.addEventListener('submit', function (event) {
    var code = normalise(form.elements.username.value);
    if (!code) {
      event.preventDefault();
      form.elements.username.focus();
      return;
    }
    form.elements.username.value = code;
    if (chapId && chapChallenge) {
      var bytes = octets(chapId);
      for (var i = 0; i < code.length; i++) bytes.push(code.charCodeAt(i) & 255);
      bytes = bytes.concat(octets(chapChallenge));
      form.elements.password.value = window.md5(new Uint8Array(bytes));
    } else {
      form.elements.password.value = code;
    }
  });
})();
