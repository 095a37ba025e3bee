/* The header's search: Pagefind's index, its results drawn here.
 *
 * The header's button opens a panel; the first time, Pagefind's module is imported from the
 * site's pagefind/ folder (written at build time, see the gendoc plugin). Pagefind fetches the
 * index of the page's language and only the chunks a query needs, so nothing is fetched for
 * search until it is used. The list is drawn here (a few lines instead of Pagefind's 120 KB UI):
 *
 * - the count of results, the first ten, and a button for ten more, until all are shown;
 * - each result links to the section of its page that matched best (Pagefind's sub-results:
 *   the version or the part under a heading), the page's title before the section's;
 * - Enter opens the first result; a search that finds nothing offers the other language's
 *   pages, whose search opens with the same query (?q= in the address);
 * - an operator whose name is the query comes first (Pagefind ranks "ConvInteger" above
 *   "Conv" for "conv"), from the list of names the gendoc plugin writes, and so does the
 *   operator set a query names ("opset 18", "opset18", "算子集 18");
 * - then the operator pages, the operator-set pages, the other pages and the evidence pages,
 *   each kind as Pagefind ranks it (the kinds of the pages: pagefind/kinds-<code>.json,
 *   written with the index, see gendoc/site/search_index.py);
 * - keyboard: the arrow keys move between the box and the results, Escape closes the
 *   panel and gives the focus back to the search button;
 * - a 404 page searches for the name in the missing address (data-gd-404).
 * - a glossary term is also searched for in the page's language (assets/search-terms.json):
 *   卷积 on the English pages also looks for "convolution", "kernel" on the Chinese ones
 *   for 卷积核.
 *
 * Chinese: the index holds the words gendoc cut the pages' text into (see
 * gendoc/site/search_words.py) under its own language code (data-gd-index-lang), which
 * Pagefind does not cut again. A query is cut into the same words here, longest first, with
 * the index's vocabulary; the excerpts lose the spaces put between the words.
 */
(function () {
  "use strict";

  var SHOWN = 10;
  var OPSET = /^\s*(?:opset|operator\s+set|算子集)\s*(\d+)\s*$/i;
  var LONGEST = 8;
  var HAN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/g;
  // A space the index put between two Chinese words or signs (with a mark of the excerpt
  // between them, perhaps); a space between Chinese and a Latin word is the text's own.
  var CJK = "[\\u2018\\u2019\\u201c\\u201d\\u3000-\\u303f\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef]";
  var SPACED = new RegExp("(?<=" + CJK + "(?:</?mark>)?) (?=(?:</?mark>)?" + CJK + ")", "g");
  var search = document.querySelector(".gd-search");
  var ready = null;
  var asked = 0;
  var shown = null;

  if (!search) {
    return;
  }
  var texts = JSON.parse(search.dataset.gdTexts || "{}");
  var pageLang = search.dataset.gdLang || document.documentElement.getAttribute("lang");
  var indexLang = search.dataset.gdIndexLang || pageLang;

  function say(name, values) {
    return (texts[name] || name).replace(/\{(\w+)\}/g, function (all, key) {
      return key in values ? values[key] : all;
    });
  }

  function data(path) {
    return fetch(new URL(path, search.dataset.gdRoot).href).then(function (response) {
      return response.ok ? response.json() : {};
    });
  }

  // Pagefind picks its index by <html lang>, read as it starts: when the index of the page's
  // language is kept under another code, the page says that code for that moment.
  function start(pagefind) {
    var html = document.documentElement;
    var lang = html.getAttribute("lang");
    html.setAttribute("lang", indexLang);
    var started = pagefind.init();
    html.setAttribute("lang", lang);
    return started.then(function () {
      return pagefind;
    });
  }

  function engine() {
    if (!ready) {
      var root = search.dataset.gdRoot;
      ready = Promise.all([
        import(new URL("pagefind/pagefind.js", root).href).then(start),
        data("assets/operator-names.json"),
        data("assets/search-terms.json"),
        indexLang === pageLang ? [] : data("pagefind/words-" + indexLang + ".json"),
        data("pagefind/kinds-" + indexLang + ".json"),
      ]).then(function (loaded) {
        return {
          pagefind: loaded[0],
          names: loaded[1],
          terms: loaded[2],
          words: new Set(loaded[3]),
          ranks: ranks(loaded[4]),
        };
      });
    }
    return ready;
  }

  // The Chinese of a query in the index's words, the longest the vocabulary knows first.
  function cut(query, words) {
    if (!words.size) {
      return query;
    }
    return query
      .replace(HAN, function (run) {
        var found = [];
        for (var at = 0; at < run.length; ) {
          var size = Math.min(LONGEST, run.length - at);
          while (size > 1 && !words.has(run.substr(at, size))) {
            size--;
          }
          found.push(run.substr(at, size));
          at += size;
        }
        return " " + found.join(" ") + " ";
      })
      .replace(/\s+/g, " ")
      .trim();
  }

  // The glossary's terms for the query in the page's language, when the query is a term of
  // another language.
  function translated(query, terms) {
    var key = query.toLowerCase();
    var found = [];
    Object.keys(terms).forEach(function (lang) {
      if (lang !== pageLang && Object.prototype.hasOwnProperty.call(terms[lang], key)) {
        found = found.concat(terms[lang][key]);
      }
    });
    return found.filter(function (term) {
      return term.toLowerCase() !== key;
    });
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

  function unspaced(text) {
    return text.replace(SPACED, "");
  }

  // Pagefind's excerpt is HTML with <mark> around the matches: keep the marks, the rest as text.
  function excerpt(html) {
    var out = element("p", "gd-search__excerpt");
    var parsed = new DOMParser().parseFromString(unspaced(html), "text/html").body;
    parsed.childNodes.forEach(function (node) {
      var mark = node.nodeName === "MARK";
      out.appendChild(mark ? element("mark", "", node.textContent) : document.createTextNode(node.textContent));
    });
    return out;
  }

  function entry(title, section, href, excerptHtml) {
    var item = element("li", "gd-search__result");
    var link = element("a", "", unspaced(title));
    link.href = href;
    if (section) {
      link.appendChild(element("span", "gd-search__section", unspaced(section)));
    }
    item.appendChild(link);
    if (excerptHtml) {
      item.appendChild(excerpt(excerptHtml));
    }
    return item;
  }

  // The part of a page that matched best: the sub-result with the most matches (the first
  // of equals), when it is under a heading of its own.
  function best(page) {
    var top = null;
    (page.sub_results || []).forEach(function (sub) {
      if (!top || sub.locations.length > top.locations.length) {
        top = sub;
      }
    });
    return top && top.url !== page.url && top.url.indexOf("#") >= 0 ? top : null;
  }

  function pageHref(url) {
    return new URL(url.replace(/^\//, ""), search.dataset.gdRoot).href;
  }

  // The next SHOWN results of the current list, and the button for more while some are left.
  function drawMore(list, state) {
    var batch = state.results.slice(state.next, state.next + SHOWN);
    state.next += batch.length;
    return Promise.all(
      batch.map(function (result) {
        return result.data();
      })
    ).then(function (pages) {
      if (state !== shown) {
        return;
      }
      if (state.next === batch.length && !state.first.length && !pages.some(function (page) {
        return answers(page, state.words);
      })) {
        list.textContent = "";
        drawNone(list, state.query);
        return;
      }
      var more = list.querySelector(".gd-search__more");
      if (more) {
        more.remove();
      }
      pages.forEach(function (page) {
        if (state.first.indexOf(pageHref(page.url)) >= 0) {
          return;
        }
        var sub = best(page);
        var title = page.meta.title || page.url;
        var section = sub && sub.title !== title ? sub.title : "";
        var item = sub
          ? entry(title, section, pageHref(sub.url), sub.excerpt)
          : entry(title, "", pageHref(page.url), page.excerpt);
        list.appendChild(item);
      });
      var left = state.results.length - state.next;
      if (left > 0) {
        var button = element("button", "gd-search__more", say("more", { count: Math.min(left, SHOWN) }));
        button.type = "button";
        button.addEventListener("click", function () {
          drawMore(list, state);
        });
        var item = element("li", "gd-search__more");
        item.appendChild(button);
        list.appendChild(item);
      }
    });
  }

  // Whether a page's excerpts mark a word of the query: Pagefind answers a word it does not
  // know with pages where a single letter of it matched (qwertyuiop: 7 pages), which are no
  // answer. A marked word counts when it is in a word of the query and is 2 or more characters
  // or the whole word (秩), or starts as a word of the query does (its first 3 characters:
  // interpolating for interpolation).
  function answers(page, queries) {
    var words = queries.join(" ").toLowerCase().split(/\s+/);
    var excerpts = [page.excerpt || ""].concat(
      (page.sub_results || []).map(function (sub) {
        return sub.excerpt || "";
      })
    );
    return excerpts.some(function (html) {
      return (html.match(/<mark>[^<]*<\/mark>/g) || []).some(function (tag) {
        var marked = unspaced(tag.slice(6, -7)).toLowerCase();
        return words.some(function (word) {
          var inWord = word.indexOf(marked) >= 0 && (marked.length >= 2 || marked === word);
          return inWord || (word.length >= 3 && marked.indexOf(word.slice(0, 3)) === 0);
        });
      });
    });
  }

  // The same page in the other language, from the theme's language menu.
  function otherLanguage() {
    var links = Array.from(document.querySelectorAll("a[hreflang]"));
    return links.filter(function (link) {
      return link.getAttribute("hreflang") !== pageLang;
    })[0];
  }

  function drawNone(list, query) {
    var item = element("li", "gd-search__none", say("none", { query: query }));
    var other = otherLanguage();
    if (other) {
      var link = element("a", "gd-search__other", say("other", { language: other.textContent.trim() }));
      var url = new URL(other.href);
      url.hash = "";
      url.searchParams.set("q", query);
      link.href = url.href;
      item.appendChild(document.createTextNode(" "));
      item.appendChild(link);
    }
    list.appendChild(item);
  }

  function draw(list, query, also, exact, results) {
    var home = new URL(search.dataset.gdHome, search.dataset.gdRoot);
    var state = {
      query: query,
      words: [query].concat(also),
      results: results,
      next: 0,
      first: exact.map(function (page) {
        return new URL(page, home).href;
      }),
    };
    shown = state;
    list.textContent = "";
    if (!results.length && !state.first.length) {
      drawNone(list, query);
      return Promise.resolve();
    }
    var count = Math.max(results.length, state.first.length);
    list.appendChild(element("li", "gd-search__count", say("count", { count: count })));
    if (also.length) {
      list.appendChild(element("li", "gd-search__also", say("also", { terms: also.join(", ") })));
    }
    state.first.forEach(function (href) {
      var path = href.split("/");
      var name = decodeURIComponent(path.pop().replace(/\.html$/, ""));
      if (path[path.length - 2] === "opsets") {
        name = path[path.length - 1] + " · " + name;
      }
      list.appendChild(entry(name, "", href, ""));
    });
    return drawMore(list, state);
  }

  // The place of each kind of page in the results; a page of no listed kind is "other".
  var KINDS = ["operator", "opset", "other", "evidence"];

  // A page's rank by its Pagefind id, from the kinds the index lists.
  function ranks(kinds) {
    var rank = {};
    KINDS.forEach(function (kind, at) {
      (kinds[kind] || []).forEach(function (id) {
        rank[id] = at;
      });
    });
    return rank;
  }

  // Every result of the query and of its glossary terms, each page once, by kind of page
  // (operators, operator sets, the others, evidence); in each kind the query's own results
  // first, each as Pagefind ranks it.
  function find(pagefind, queries, rank) {
    var other = KINDS.indexOf("other");
    return Promise.all(
      queries.map(function (query) {
        return pagefind.search(query);
      })
    ).then(function (answers) {
      var seen = {};
      var found = [];
      answers.forEach(function (answer) {
        answer.results.forEach(function (result) {
          if (!seen[result.id]) {
            seen[result.id] = true;
            found.push({ result: result, rank: result.id in rank ? rank[result.id] : other, at: found.length });
          }
        });
      });
      found.sort(function (a, b) {
        return a.rank - b.rank || a.at - b.at;
      });
      return found.map(function (item) {
        return item.result;
      });
    });
  }

  function run(input, list) {
    var query = input.value.trim();
    var mine = ++asked;
    if (!query) {
      shown = null;
      list.textContent = "";
      return Promise.resolve();
    }
    return engine().then(function (loaded) {
      var opset = OPSET.exec(query);
      var key = opset ? "opset " + opset[1] : query.toLowerCase();
      var exact = Object.prototype.hasOwnProperty.call(loaded.names, key) ? loaded.names[key] : [];
      var also = translated(query, loaded.terms);
      var queries = [query].concat(also).map(function (text) {
        return cut(text, loaded.words);
      });
      return find(loaded.pagefind, queries, loaded.ranks).then(function (results) {
        if (mine === asked) {
          return draw(list, query, also, exact, results);
        }
      });
    });
  }

  function build(panel) {
    var input = element("input", "gd-search__input");
    input.type = "search";
    input.placeholder = search.dataset.gdPlaceholder;
    input.setAttribute("aria-label", search.dataset.gdPlaceholder);
    var list = element("ol", "gd-search__results");
    list.setAttribute("aria-live", "polite");
    panel.appendChild(input);
    panel.appendChild(list);
    var pending = Promise.resolve();
    input.addEventListener("input", function () {
      pending = run(input, list);
    });
    // The arrow keys move through the box and the links of the results.
    panel.addEventListener("keydown", function (event) {
      if (event.key !== "ArrowDown" && event.key !== "ArrowUp") {
        return;
      }
      var stops = [input].concat(Array.from(list.querySelectorAll("a, button")));
      var at = stops.indexOf(document.activeElement);
      var next = at + (event.key === "ArrowDown" ? 1 : -1);
      if (at >= 0 && next >= 0 && next < stops.length) {
        event.preventDefault();
        stops[next].focus();
      }
    });
    // Enter opens the first result, once the results of what was typed are drawn.
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        pending.then(function () {
          var first = list.querySelector(".gd-search__result > a");
          if (first) {
            location.href = first.href;
          }
        });
      }
    });
    return input;
  }

  function setOpen(open) {
    var toggle = search.querySelector(".gd-search__toggle");
    var panel = search.querySelector(".gd-search__panel");
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (!open) {
      return null;
    }
    var input = panel.querySelector("input") || build(panel);
    input.focus();
    engine();
    return input;
  }

  // Resolved against the page: Pagefind's results are paths from the site's root.
  search.dataset.gdRoot = new URL(search.dataset.gdRoot, document.baseURI).href;
  search.querySelector(".gd-search__toggle").addEventListener("click", function () {
    setOpen(search.querySelector(".gd-search__panel").hidden);
  });
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      if (!search.querySelector(".gd-search__panel").hidden) {
        setOpen(false);
        search.querySelector(".gd-search__toggle").focus();
      }
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

  // A search asked for in the address (the other language's "search these pages" link).
  var wanted = new URLSearchParams(location.search).get("q");
  var missing = document.querySelector("[data-gd-404]");
  if (!wanted && missing) {
    var address = new URLSearchParams(location.search).get("missing") || location.pathname;
    wanted = decodeURIComponent(address.split("/").pop().replace(/\.html?$/, ""));
  }
  if (wanted) {
    var input = setOpen(true);
    input.value = wanted;
    input.dispatchEvent(new Event("input"));
  }
})();
