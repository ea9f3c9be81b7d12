extension Pages {
    /// The catalog's script: renders /api/runs, then follows /api/events (the whole list on every
    /// change); sorting and filtering happen here. `body[data-updates]` counts the updates received.
    static let catalogScript = #"""
    const S={runs:[],key:'modified',dir:-1};
    const $=id=>document.getElementById(id);
    const esc=s=>String(s??'').replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
    const url=p=>'/files/'+p.split('/').map(encodeURIComponent).join('/');
    function dur(s){if(s==null)return'';s=Math.round(s);if(s<60)return s+' s';if(s<3600)return Math.floor(s/60)+' min '+(s%60)+' s';return (s/3600).toFixed(1)+' h'}
    function when(t){const d=new Date(t*1000),p=n=>String(n).padStart(2,'0');return `${d.getFullYear()}-${p(d.getMonth()+1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`}
    function status(r){
      let h=`<span class="state ${r.state}">${esc(r.status)}</span>`;
      if(r.state==='running'&&r.worlds){
        const done=r.worldsDone||0,p=Math.min(100,100*done/r.worlds);
        h+=`<div class="bar"><span style="width:${p.toFixed(1)}%"></span></div><small class="progress">${done} of ${r.worlds} worlds`
          +(r.rate?`, ${r.rate.toFixed(r.rate<10?2:0)} a second`:'')+(r.secondsLeft!=null?`, about ${dur(r.secondsLeft)} left`:'')+'</small>';
      }
      if(r.resume)h+=`<br><small>resume:</small> <code>${esc(r.resume)}</code>`;
      return h;
    }
    function links(r){
      const out=[];
      for(const f of r.reports){const n=f.split('/').pop();if(/\.(html)$/.test(n)||n==='worlds.csv'||n==='summary.json'||n==='tune.json')out.push(`<a href="${url(f)}">${esc(n)}</a>`)}
      if((r.parameters.length&&(r.kind==='sweep'||r.kind==='shards'))||(r.kind==='tune'&&r.worldsDone))out.push(`<a class="replay" href="/replay?run=${encodeURIComponent(r.path)}">replay</a>`);
      if(r.kind==='tune')out.push(`<a class="tune" href="/tune?run=${encodeURIComponent(r.path)}">${r.state==='running'?'live search':'search'}</a>`);
      return out.join(' ');
    }
    function row(r){
      const worlds=r.worlds==null?'':(r.state==='done'?r.worlds:`${r.worldsDone??0} / ${r.worlds}`);
      return `<tr data-path="${esc(r.path)}" data-state="${r.state}"><td data-label="Name"><strong>${esc(r.name)}</strong><br><small>${esc(r.path)}</small></td>`
        +`<td data-label="Kind">${r.kind}</td><td data-label="Status">${status(r)}</td><td data-label="Worlds" class="n worlds">${worlds}</td>`
        +`<td data-label="Duration" class="n">${dur(r.seconds)}</td><td data-label="Date" class="n">${when(r.modified)}</td>`
        +`<td class="headline">${esc(r.headline||'')}</td><td class="links">${links(r)}</td></tr>`;
    }
    function render(){
      const f=$('filter').value.toLowerCase(),k=$('kind').value,st=$('state').value;
      let rows=S.runs.filter(r=>(!k||r.kind===k)&&(!st||r.state===st)&&(!f||[r.name,r.path,r.status,r.headline].join(' ').toLowerCase().includes(f)));
      rows.sort((a,b)=>{const x=a[S.key]??-Infinity,y=b[S.key]??-Infinity;return (x<y?-1:x>y?1:0)*S.dir});
      $('runs').innerHTML=rows.length?rows.map(row).join(''):'<tr><td colspan="8">no runs here yet: worldsweep run FILE --out FOLDER/NAME</td></tr>';
      $('count').textContent=`${rows.length} of ${S.runs.length} runs`;
      const done=S.runs.filter(r=>r.state==='done'&&(r.kind==='sweep'||r.kind==='shards'));
      for(const [id,i] of [['compare-a',0],['compare-b',1]]){
        const sel=$(id),keep=sel.value;
        sel.innerHTML=done.map(r=>`<option value="${esc(r.path)}">${esc(r.path)}</option>`).join('');
        sel.value=keep||(done[i]||done[0]||{}).path||'';
      }
    }
    function take(runs){S.runs=runs;document.body.dataset.updates=(+document.body.dataset.updates||0)+1;render()}
    document.querySelectorAll('th button').forEach(b=>b.onclick=()=>{const k=b.dataset.key;S.dir=S.key===k?-S.dir:(k==='name'||k==='kind'?1:-1);S.key=k;render()});
    for(const id of ['filter','kind','state'])$(id).oninput=render;
    fetch('/api/runs').then(r=>r.json()).then(take).catch(()=>{});
    if(window.EventSource){const es=new EventSource('/api/events');es.addEventListener('runs',e=>take(JSON.parse(e.data)))}
    """#
}
