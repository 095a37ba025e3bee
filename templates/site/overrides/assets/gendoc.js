/* The page's small behaviours: a filter on a domain's table, the operator set of a matrix
 * page, a language switch that keeps the anchor, an operator page's "copy as Markdown", and
 * the 404 page's help. (The header's
 * search is search.js.)
 *
 * Filter: a domain's index has a box (hidden until this script shows it) that hides the
 * rows of its table whose operator name lacks the box's text. It lives here rather than
 * in the page, so that no generated page carries a script of its own.
 */
(function () {
  "use strict";

  var filter = document.querySelector("input.gd-filter");
  if (filter) {
    var rows = Array.from(document.querySelectorAll(".md-content table tbody tr"));
    filter.hidden = false;
    filter.addEventListener("input", function () {
      var wanted = filter.value.trim().toLowerCase();
      rows.forEach(function (row) {
        row.hidden = wanted !== "" && row.cells[0].textContent.toLowerCase().indexOf(wanted) < 0;
      });
    });
  }

  // The tag filter of a domain's index (hidden without this script, which shows every row):
  // a row stays when its Differentiability cell counts the chosen tag. It marks rows with a
  // class rather than the hidden attribute, so that it and the name filter add up.
  var tagFilter = document.querySelector("select.gd-tag-filter");
  if (tagFilter) {
    var tagRows = Array.from(document.querySelectorAll(".md-content table tbody tr"));
    tagFilter.hidden = false;
    tagFilter.addEventListener("change", function () {
      var tag = tagFilter.value;
      tagRows.forEach(function (row) {
        row.classList.toggle("gd-tag-off", tag !== "" && !row.querySelector(".gd-n-" + tag));
      });
    });
  }

  // The operator set of a domain's matrix page (hidden without this script, which leaves the
  // newest set's rows): a row stays when the operator version it names is in effect in the
  // chosen set (its data-gd-opsets, first and last). The set is kept in the address
  // (#opset-13), so that a link can choose it and the back button returns to it.
  var opsetFilter = document.querySelector("select.gd-opset-filter");
  if (opsetFilter) {
    var opsetRows = Array.from(document.querySelectorAll("tr[data-gd-opsets]"));
    var opsetShown = document.querySelector(".gd-opset-shown");
    var showOpset = function () {
      var version = Number(opsetFilter.value);
      opsetRows.forEach(function (row) {
        var span = row.getAttribute("data-gd-opsets").split(" ").map(Number);
        row.hidden = version < span[0] || version > span[1];
      });
      if (opsetShown) {
        opsetShown.textContent = opsetFilter.value;
      }
    };
    var fromAddress = function () {
      var found = /^#opset-(\d+)$/.exec(location.hash);
      var option = found && opsetFilter.querySelector('option[value="' + found[1] + '"]');
      opsetFilter.value = option ? found[1] : opsetFilter.options[0].value;
      showOpset();
    };
    opsetFilter.closest(".gd-opset-pick").hidden = false;
    opsetFilter.addEventListener("change", function () {
      history.replaceState(null, "", "#opset-" + opsetFilter.value);
      showOpset();
    });
    window.addEventListener("hashchange", fromAddress);
    fromAddress();
  }

  // "Copy as Markdown" on an operator page (hidden without this script): fetches the page's
  // Markdown, which sits beside it, and puts it on the clipboard; the button says how it went.
  var copy = document.querySelector("button.gd-copy-md");
  if (copy && navigator.clipboard) {
    var label = copy.textContent;
    copy.hidden = false;
    copy.addEventListener("click", function () {
      fetch(copy.dataset.gdMarkdown)
        .then(function (response) {
          if (!response.ok) {
            throw new Error(response.status);
          }
          return response.text();
        })
        .then(function (text) {
          return navigator.clipboard.writeText(text);
        })
        .then(
          function () {
            copy.textContent = copy.dataset.gdDone;
          },
          function () {
            copy.textContent = copy.dataset.gdFailed;
          }
        )
        .then(function () {
          setTimeout(function () {
            copy.textContent = label;
          }, 2000);
        });
    });
  }

  // The language menu points at the same page in the other language; take the anchor along.
  document.addEventListener(
    "click",
    function (event) {
      var link = event.target.closest && event.target.closest("a[hreflang]");
      if (link && location.hash) {
        link.href = link.href.split("#")[0] + location.hash;
      }
    },
    true
  );

  // The 404 page (404.html): a host that serves the root's page for every missing address
  // (GitHub Pages) shows the first language's; a missing address in another language's
  // folder is sent to that language's 404 page, with the address. Then the operator whose
  // name differs from the address's only in case is named, from the list of names.
  var missing = document.querySelector("[data-gd-404]");
  if (missing) {
    var search = document.querySelector(".gd-search");
    var root = new URL(search ? search.dataset.gdRoot : "/", document.baseURI).href;
    var asked = new URLSearchParams(location.search).get("missing") || location.href.split(/[?#]/)[0];
    var inSite = asked.indexOf(root) === 0 ? asked.slice(root.length) : "";
    var lang = missing.getAttribute("data-gd-404");
    var other = Array.from(document.querySelectorAll("a[hreflang]")).filter(function (link) {
      var folder = link.getAttribute("hreflang") + "/";
      return link.getAttribute("hreflang") !== lang && inSite.indexOf(folder) === 0;
    })[0];
    if (other) {
      var target = new URL(other.getAttribute("hreflang") + "/404.html", root);
      target.searchParams.set("missing", asked);
      location.replace(target.href);
      return;
    }
    var name = decodeURIComponent(asked.split("/").pop().replace(/\.html?$/, ""));
    fetch(new URL("assets/operator-names.json", root).href)
      .then(function (response) {
        return response.ok ? response.json() : {};
      })
      .then(function (names) {
        var pages = names[name.toLowerCase()];
        if (!pages || !pages.length) {
          return;
        }
        var home = new URL(missing.dataset.gdHome, document.baseURI);
        var parts = missing.dataset.gdSuggest.split("{name}");
        var link = document.createElement("a");
        link.href = new URL(pages[0], home).href;
        link.textContent = pages[0].split("/").pop().replace(/\.html$/, "");
        missing.replaceChildren(document.createTextNode(parts[0]), link, document.createTextNode(parts[1] || ""));
        missing.hidden = false;
      });
  }
})();
