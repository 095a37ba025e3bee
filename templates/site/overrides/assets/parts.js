/* Parts of an operator page kept in files of their own (see gendoc/site/parts.py), fetched
 * when the reader asks for them:
 *
 * - a folded element naming a part (data-gd-part: a diff between neighbour versions, an
 *   example) gets it when it opens, or at once if it is open already (a diff where a tag
 *   changed) or is the target of the address (#diff-6-9);
 * - the "compare" picker (shown here; hidden for a reader without scripts, who has the list
 *   of links to every pair below it) shows the diff of the two versions chosen, fetched
 *   when chosen; a link of the list fills the picker instead of leaving the page.
 */
(function () {
  "use strict";

  var fetched = {};

  function part(url) {
    var href = new URL(url, document.baseURI).href;
    if (!fetched[href]) {
      fetched[href] = fetch(href).then(function (response) {
        if (!response.ok) {
          throw new Error(response.status + " " + href);
        }
        return response.text();
      });
    }
    return fetched[href];
  }

  // The fragment as nodes (a <template> runs no script and loads nothing while parsing),
  // without the encoding it declares for a browser that opens it on its own.
  function nodes(html) {
    var template = document.createElement("template");
    template.innerHTML = html;
    template.content.querySelectorAll("meta").forEach(function (meta) {
      meta.remove();
    });
    return template.content;
  }

  function load(details) {
    if (details.dataset.gdLoaded) {
      return;
    }
    details.dataset.gdLoaded = "1";
    part(details.dataset.gdPart).then(function (html) {
      var link = details.querySelector(".gd-part-link");
      details.replaceChild(nodes(html), link);
    });
  }

  var folded = document.querySelectorAll("details[data-gd-part]");
  folded.forEach(function (details) {
    details.addEventListener("toggle", function () {
      if (details.open) {
        load(details);
      }
    });
    if (details.open) {
      load(details);
    }
  });

  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.matches("details[data-gd-part]")) {
      target.open = true;
    }
  }
  window.addEventListener("hashchange", openTarget);
  openTarget();

  var picker = document.querySelector("form.gd-compare-picker");
  if (!picker) {
    return;
  }
  var shown = picker.nextElementSibling;
  var older = picker.elements.old;
  var newer = picker.elements.new;

  function show() {
    var old = Number(older.value);
    Array.from(newer.options).forEach(function (option) {
      option.disabled = Number(option.value) <= old;
    });
    if (Number(newer.value) <= old) {
      newer.value = Array.from(newer.options).filter(function (option) {
        return !option.disabled;
      })[0].value;
    }
    var pair = old + "-" + newer.value;
    shown.dataset.gdPair = pair;
    var title = picker.dataset.gdTitle.replace("{old}", old).replace("{new}", newer.value);
    var url = picker.dataset.gdParts + "diff-" + pair + picker.dataset.gdExtension;
    return part(url).then(function (html) {
      if (shown.dataset.gdPair !== pair) {
        return;
      }
      var box = document.createElement("div");
      box.className = "gd-compare-diff";
      var heading = document.createElement("p");
      heading.className = "gd-compare-title";
      heading.textContent = title;
      box.appendChild(heading);
      box.appendChild(nodes(html));
      shown.replaceChildren(box);
    });
  }

  picker.hidden = false;
  picker.addEventListener("change", show);
  picker.addEventListener("submit", function (event) {
    event.preventDefault();
  });
  document.querySelectorAll("a[data-gd-pair]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var pair = link.dataset.gdPair.split(" ");
      older.value = pair[0];
      newer.value = pair[1];
      show().then(function () {
        picker.scrollIntoView();
      });
    });
  });
  // The newest two versions, compared once the picker comes into view.
  if ("IntersectionObserver" in window) {
    var watch = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        watch.disconnect();
        if (!shown.dataset.gdPair) {
          show();
        }
      }
    });
    watch.observe(picker);
  }
})();
