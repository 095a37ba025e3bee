/* The site's small behaviours: search with Pagefind, and a language switch that keeps the anchor.
 *
 * Search: the header's button opens a panel; the first time, Pagefind's module is
 * imported from the site's pagefind/ folder (written at build time, see the gendoc
 * plugin). Pagefind picks the index of the page's <html lang> and downloads only the
 * chunks a query needs, so nothing is fetched for search until it is used. The list
 * is drawn here (a few lines instead of Pagefind's 120 KB UI). Pagefind ranks
 * "ConvInteger" above "Conv" for "conv", so an operator whose name is the query is put
 * first from the list of names the gendoc plugin writes (assets/operator-names.json).
 *
 * Filter: a domain's index has a box (hidden until this script shows it) that hides the
 * rows of its table whose operator name lacks the box's text. It lives here rather than
 * in the page, so that no generated page carries a script of its own.
 */
(function () {
  "use strict";

  var SHOWN = 10;
  var search = document.querySelector(".gd-search");
  var ready = null;
  var asked = 0;

  function engine() {
    if (!ready) {
      var root = search.dataset.gdRoot;
      ready = Promise.all([
        import(new URL("pagefind/pagefind.js", root).href),
        fetch(new URL("assets/operator-names.json", root).href).then(function (response) {
          return response.json();
        }),
      ]);
    }
    return ready;
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text) {
      node.textContent = text;
    }
    return node;
  }

  // Pagefind's excerpt is HTML with <mark> around the matches: keep the marks, the rest as text.
  function excerpt(html) {
    var out = element("p", "gd-search__excerpt");
    var parsed = new DOMParser().parseFromString(html, "text/html").body;
    parsed.childNodes.forEach(function (node) {
      var mark = node.nodeName === "MARK";
      out.appendChild(mark ? element("mark", "", node.textContent) : document.createTextNode(node.textContent));
    });
    return out;
  }

  function entry(title, href, excerptHtml) {
    var item = element("li", "gd-search__result");
    var link = element("a", "", title);
    link.href = href;
    item.appendChild(link);
    if (excerptHtml) {
      item.appendChild(excerpt(excerptHtml));
    }
    return item;
  }

  function draw(list, query, exact, found) {
    var home = new URL(search.dataset.gdHome, search.dataset.gdRoot);
    var first = exact.map(function (page) {
      return new URL(page, home).href;
    });
    return Promise.all(
      found.results.slice(0, SHOWN).map(function (result) {
        return result.data();
      })
    ).then(function (pages) {
      list.textContent = "";
      first.forEach(function (href) {
        var name = decodeURIComponent(href.split("/").pop().replace(/\.html$/, ""));
        list.appendChild(entry(name, href, ""));
      });
      pages.forEach(function (page) {
        var href = new URL(page.url.replace(/^\//, ""), search.dataset.gdRoot).href;
        if (first.indexOf(href) < 0) {
          list.appendChild(entry(page.meta.title || page.url, href, page.excerpt));
        }
      });
      if (!list.childNodes.length) {
        list.appendChild(element("li", "gd-search__none", "∅ " + query));
      }
    });
  }

  function run(input, list) {
    var query = input.value.trim();
    var mine = ++asked;
    if (!query) {
      list.textContent = "";
      return;
    }
    engine()
      .then(function (loaded) {
        var names = loaded[1];
        var exact = Object.prototype.hasOwnProperty.call(names, query.toLowerCase())
          ? names[query.toLowerCase()]
          : [];
        return Promise.all([exact, loaded[0].search(query)]);
      })
      .then(function (answers) {
        if (mine === asked) {
          return draw(list, query, answers[0], answers[1]);
        }
      });
  }

  function build(panel) {
    var input = element("input", "gd-search__input");
    input.type = "search";
    input.placeholder = search.dataset.gdPlaceholder;
    input.setAttribute("aria-label", search.dataset.gdPlaceholder);
    var list = element("ol", "gd-search__results");
    panel.appendChild(input);
    panel.appendChild(list);
    input.addEventListener("input", function () {
      run(input, list);
    });
    return input;
  }

  function setOpen(open) {
    var toggle = search.querySelector(".gd-search__toggle");
    var panel = search.querySelector(".gd-search__panel");
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (!open) {
      return;
    }
    (panel.querySelector("input") || build(panel)).focus();
    engine();
  }

  if (search) {
    // Resolved against the page: Pagefind's results are paths from the site's root.
    search.dataset.gdRoot = new URL(search.dataset.gdRoot, document.baseURI).href;
    search.querySelector(".gd-search__toggle").addEventListener("click", function () {
      setOpen(search.querySelector(".gd-search__panel").hidden);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") {
        setOpen(false);
      } else if (event.key === "/" && !/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName)) {
        event.preventDefault();
        setOpen(true);
      }
    });
    document.addEventListener("click", function (event) {
      if (!search.contains(event.target)) {
        setOpen(false);
      }
    });
  }

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
})();
