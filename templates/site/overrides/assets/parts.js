/* Parts of an operator page kept in files of their own (see gendoc/site/parts.py), fetched
 * when the reader asks for them:
 *
 * - a folded element naming a part (data-gd-part: a diff between neighbour versions, an
 *   example) gets it when it opens, or at once if it is open already (a diff where a tag
 *   changed) or is the target of the address (#diff-6-9). A part is a section of a file
 *   that holds several (Cast.changes-9.htm#diff-6-9: the diffs into version 9;
 *   Cast.examples.htm#example-3): the file is fetched once, the section taken;
 * - the "compare" picker (shown here; hidden for a reader without scripts, who has the list
 *   of links to every pair below it) shows the diff of the two versions chosen, fetched
 *   when chosen; a link of the list fills the picker instead of leaving the page. The
 *   address names the pair shown (#compare-9-13), so that it can be shared: opened, the
 *   page shows that pair;
 * - a file of comparisons is a page of its own (for a new tab, print, a reader without
 *   scripts): only the body of the section (data-gd-part-body) is taken in;
 * - before printing, every folded part opens (and is fetched).
 */
(function () {
  "use strict";

  var fetched = {};

  // The file of the part at ``url``, parsed (a parsed document runs no script and loads
  // nothing), fetched once for all its sections; and the section the URL's fragment names.
  function part(url) {
    var address = new URL(url, document.baseURI);
    var section = decodeURIComponent(address.hash.slice(1));
    address.hash = "";
    var href = address.href;
    if (!fetched[href]) {
      fetched[href] = fetch(href).then(function (response) {
        if (!response.ok) {
          throw new Error(response.status + " " + href);
        }
        return response.text();
      }).then(function (html) {
        return new DOMParser().parseFromString(html, "text/html");
      });
    }
    return fetched[href].then(function (parsed) {
      var found = section ? parsed.getElementById(section) : parsed.body;
      if (!found) {
        throw new Error("no " + section + " in " + href);
      }
      return nodes(found);
    });
  }

  // A section's content as nodes of this page: its body if it marks one (a comparison in
  // its page's frame), else all of it, without the encoding a file declares for a browser
  // that opens it on its own.
  function nodes(section) {
    var body = section.querySelector("[data-gd-part-body]") || section;
    var content = document.createDocumentFragment();
    Array.from(body.childNodes).forEach(function (node) {
      if (node.nodeName !== "META") {
        content.appendChild(document.importNode(node, true));
      }
    });
    return content;
  }

  function load(details) {
    if (details.dataset.gdLoaded) {
      return;
    }
    details.dataset.gdLoaded = "1";
    part(details.dataset.gdPart).then(function (content) {
      var link = details.querySelector(".gd-part-link");
      details.replaceChild(content, link);
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

  // Printed, the folded parts show: each opens (and is fetched) before the page is laid out.
  window.addEventListener("beforeprint", function () {
    document.querySelectorAll(".md-content details").forEach(function (details) {
      details.open = true;
    });
  });

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
    var url = picker.dataset.gdParts + "changes-" + newer.value + picker.dataset.gdExtension + "#diff-" + pair;
    return part(url).then(function (content) {
      if (shown.dataset.gdPair !== pair) {
        return;
      }
      var box = document.createElement("div");
      box.className = "gd-compare-diff";
      var heading = document.createElement("p");
      heading.className = "gd-compare-title";
      heading.textContent = title;
      box.appendChild(heading);
      box.appendChild(content);
      shown.replaceChildren(box);
    });
  }

  picker.hidden = false;
  // The pair a reader chose, named in the address.
  function choose() {
    var shownNow = show();
    history.replaceState(null, "", "#compare-" + shown.dataset.gdPair);
    return shownNow;
  }
  picker.addEventListener("change", choose);
  picker.addEventListener("submit", function (event) {
    event.preventDefault();
  });
  document.querySelectorAll("a[data-gd-pair]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      var pair = link.dataset.gdPair.split(" ");
      older.value = pair[0];
      newer.value = pair[1];
      choose().then(function () {
        picker.scrollIntoView();
      });
    });
  });
  // The pair the address names (#compare-9-13), shown at once.
  function showWanted() {
    var wanted = /^#compare-(\d+)-(\d+)$/.exec(location.hash);
    if (wanted && older.querySelector('option[value="' + wanted[1] + '"]') && newer.querySelector('option[value="' + wanted[2] + '"]')) {
      older.value = wanted[1];
      newer.value = wanted[2];
      return show().then(function () {
        picker.scrollIntoView();
      });
    }
    return null;
  }
  window.addEventListener("hashchange", showWanted);
  // The newest two versions, compared once the picker comes into view.
  if (!showWanted() && "IntersectionObserver" in window) {
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
