/**
 * The site's stylesheet, script and icon: small, written here, served by the process under
 * addresses that carry a hash of their content, so browsers keep them for a year and a new
 * version is a new address. The pages work without the script; it only adds `/` to focus the
 * search box and title suggestions as one types.
 */
import { createHash } from 'node:crypto';

const CSS = `
:root{color-scheme:light dark;--bg:#fafafa;--card:#fff;--text:#1b1d21;--muted:#50565f;--line:#dcdfe4;--link:#1747a6;--accent:#1747a6;--chip:#eef2fa;--mark:#ffe58a;--mark-text:#1b1d21}
@media (prefers-color-scheme:dark){:root{--bg:#131518;--card:#1c1f24;--text:#e7e9ec;--muted:#aab0b8;--line:#353a42;--link:#9cc1ff;--accent:#9cc1ff;--chip:#262b33;--mark:#ffe58a;--mark-text:#131518}}
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI","PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC",sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
a:focus-visible,button:focus-visible,input:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5em 1em}
.skip:focus{left:.5em}
header.top{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:center;justify-content:space-between;max-width:60rem;margin:0 auto;padding:.75em 1em}
header.top .brand{font-weight:700;text-decoration:none;color:var(--text)}
nav.lang a,nav.lang span{margin-left:.6em;font-size:.9em}
main{max-width:60rem;margin:0 auto;padding:0 1em 3em}
.hero{text-align:center;padding:3em 0 1.5em}
.hero h1{font-size:2em;margin:0 0 .25em}
.hero p{color:var(--muted);margin:0 0 1.5em}
form.search{display:flex;gap:.5em;max-width:44rem;margin:0 auto}
form.search input{flex:1;min-width:0;font:inherit;padding:.65em .9em;border:1px solid var(--line);border-radius:.6em;background:var(--card);color:var(--text)}
form.search button{font:inherit;padding:.65em 1.1em;border:0;border-radius:.6em;background:var(--accent);color:var(--bg);cursor:pointer}
.syntax{color:var(--muted);font-size:.85em;text-align:center;margin:.6em auto 0;max-width:44rem}
form.related{display:flex;flex-direction:column;gap:.5em;margin:1em 0}
form.related label{font-weight:600}
form.related textarea{width:100%;min-height:10em;font:inherit;padding:.65em .9em;border:1px solid var(--line);border-radius:.6em;background:var(--card);color:var(--text);resize:vertical}
form.related button{align-self:flex-start;font:inherit;padding:.65em 1.1em;border:0;border-radius:.6em;background:var(--accent);color:var(--bg);cursor:pointer}
.hint{color:var(--text);font-weight:600}
.results-head{margin:1.5em 0 .5em}
.results-head h1{font-size:1.3em;margin:0 0 .2em}
.note{color:var(--muted);font-size:.9em;margin:.2em 0}
.filters{display:flex;flex-wrap:wrap;gap:.4em .8em;font-size:.9em;margin:.5em 0 1em}
ol.results{list-style:none;margin:0;padding:0}
.card{background:var(--card);border:1px solid var(--line);border-radius:.8em;padding:1em 1.1em;margin:0 0 .9em}
.card h2,.card h3{font-size:1.1em;line-height:1.35;margin:0 0 .3em}
.card h2 a,.card h3 a{text-decoration:none}
.card h2 a:hover,.card h3 a:hover{text-decoration:underline}
.meta{color:var(--muted);font-size:.9em;margin:.15em 0}
.meta a{color:inherit}
.topics{display:flex;flex-wrap:wrap;gap:.35em;margin:.45em 0;padding:0;list-style:none}
.topics a{display:inline-block;font-size:.8em;padding:.1em .6em;border-radius:1em;background:var(--chip);color:var(--text);text-decoration:none}
.topics a:hover{text-decoration:underline}
.snippet{margin:.45em 0;font-size:.95em}
mark{background:var(--mark);color:var(--mark-text);border-radius:.15em;padding:0 .1em}
.links{display:flex;flex-wrap:wrap;gap:.3em 1em;font-size:.9em;margin:.4em 0 0;padding:0;list-style:none}
nav.pages{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:center;justify-content:center;margin:1.5em 0}
.areas{display:grid;grid-template-columns:repeat(auto-fill,minmax(16rem,1fr));gap:1em;margin-top:2em}
.areas section{background:var(--card);border:1px solid var(--line);border-radius:.8em;padding:.8em 1em}
.areas h2{font-size:1em;margin:0 0 .4em}
.areas ul{list-style:none;margin:0;padding:0;font-size:.92em}
.areas li{display:flex;justify-content:space-between;gap:.5em}
.areas .n{color:var(--muted);white-space:nowrap}
.paper h1{font-size:1.45em;line-height:1.3;margin:1em 0 .3em}
.paper h2{font-size:1.05em;margin:1.4em 0 .4em}
.abstract{white-space:pre-line}
pre.bibtex{background:var(--card);border:1px solid var(--line);border-radius:.6em;padding:.8em;overflow-x:auto;font-size:.85em;white-space:pre-wrap;overflow-wrap:anywhere}
ul.similar{padding-left:1.2em}
.more{font-size:.9em;margin:.3em 0 0}
footer.bottom{max-width:60rem;margin:0 auto;padding:1em;color:var(--muted);font-size:.85em;border-top:1px solid var(--line)}
@media (max-width:30rem){.hero{padding-top:1.5em}.hero h1{font-size:1.6em}form.search button{padding:.65em .8em}}
`.trim();

const JS = `
(function(){
  var box=document.getElementById('q');
  document.addEventListener('keydown',function(e){
    if(e.key!=='/'||!box||e.ctrlKey||e.metaKey||e.altKey)return;
    var t=e.target;if(t&&(t.tagName==='INPUT'||t.tagName==='TEXTAREA'||t.isContentEditable))return;
    e.preventDefault();box.focus();box.select();
  });
  var list=document.getElementById('suggestions');
  if(!box||!list||!window.fetch)return;
  var timer=0,last='';
  box.addEventListener('input',function(){
    clearTimeout(timer);
    timer=setTimeout(function(){
      var q=box.value.trim();if(q.length<2||q===last)return;last=q;
      fetch('/api/suggest?q='+encodeURIComponent(q),{headers:{accept:'application/json'}}).then(function(r){return r.ok?r.json():null}).then(function(d){
        if(!d||box.value.trim()!==q)return;
        while(list.firstChild)list.removeChild(list.firstChild);
        d.suggestions.forEach(function(s){var o=document.createElement('option');o.value=s.title;list.appendChild(o);});
      }).catch(function(){});
    },150);
  });
})();
`.trim();

const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1747a6"/><circle cx="14" cy="14" r="7" fill="none" stroke="#fff" stroke-width="3"/><path d="M19 19l6 6" stroke="#fff" stroke-width="3" stroke-linecap="round"/></svg>`;

export interface Asset {
  /** The address, with a hash of the content in it. */
  path: string;
  contentType: string;
  body: Buffer;
}

function asset(name: string, extension: string, contentType: string, text: string): Asset {
  const body = Buffer.from(text, 'utf8');
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 12);
  return { path: `/assets/${name}.${hash}.${extension}`, contentType, body };
}

/** The stylesheet, the script and the icon, by role. */
export const ASSETS = {
  css: asset('site', 'css', 'text/css; charset=utf-8', CSS),
  js: asset('site', 'js', 'text/javascript; charset=utf-8', JS),
  icon: asset('icon', 'svg', 'image/svg+xml', ICON),
} as const;

/** Assets by address. */
export const ASSET_BY_PATH: ReadonlyMap<string, Asset> = new Map(Object.values(ASSETS).map((a) => [a.path, a]));
