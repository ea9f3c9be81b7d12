extension Pages {
    /// The tune page's script: renders /api/tune, then follows /api/tune/events (the whole search
    /// on every change): the convergence chart and table, the best point so far, and once the
    /// search ends its answer and files. `body[data-generations]` and `[data-state]` say what it shows.
    static let tuneScript = #"""
    const $=id=>document.getElementById(id);
    const run=$('run').dataset.run;
    const esc=s=>String(s??'').replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
    const fmt=x=>x==null?'–':Math.abs(x)>=1e4||(x!==0&&Math.abs(x)<1e-3)?x.toExponential(3):String(+x.toPrecision(6));
    const url=p=>'/files/'+p.split('/').map(encodeURIComponent).join('/');
    function chart(d){
      const G=d.generations.filter(g=>g.objective!=null),W=640,H=260,L=56,B=30;
      if(!G.length){$('convergence').innerHTML=`<text x="${W/2}" y="${H/2}" text-anchor="middle" font-size="13">no generation with a finite ${esc(d.objectiveLabel)} yet</text>`;return}
      const xs=G.map(g=>g.worlds),ys=G.map(g=>g.objective),x1=Math.max(d.budget,...xs),y0=Math.min(...ys),y1=Math.max(...ys);
      const sx=v=>L+(W-L-12)*v/x1,sy=v=>H-B-(H-B-12)*(y1>y0?(v-y0)/(y1-y0):.5);
      let path='';G.forEach((g,i)=>{path+=(i?`H${sx(g.worlds).toFixed(1)}V`:`M${sx(g.worlds).toFixed(1)},`)+sy(g.objective).toFixed(1)});
      $('convergence').innerHTML=`<line x1="${L}" y1="${H-B}" x2="${W-12}" y2="${H-B}" stroke="#999"/><line x1="${L}" y1="12" x2="${L}" y2="${H-B}" stroke="#999"/>`
        +`<text x="${(W+L)/2}" y="${H-8}" font-size="12" text-anchor="middle">worlds run (budget ${d.budget})</text>`
        +`<text x="14" y="${(H-B)/2}" font-size="12" text-anchor="middle" transform="rotate(-90 14 ${(H-B)/2})">best so far: ${esc(d.objectiveLabel)}</text>`
        +`<text x="${L-4}" y="${sy(y1)+4}" font-size="11" text-anchor="end">${fmt(y1)}</text><text x="${L-4}" y="${sy(y0)+4}" font-size="11" text-anchor="end">${fmt(y0)}</text>`
        +`<path d="${path}" fill="none" stroke="#0b57a4" stroke-width="2"/>`
        +G.map(g=>`<circle cx="${sx(g.worlds).toFixed(1)}" cy="${sy(g.objective).toFixed(1)}" r="3.5" fill="${g.met?'#1b6e20':'#0b57a4'}"><title>generation ${g.generation}: ${g.worlds} worlds, ${esc(d.objectiveLabel)} ${fmt(g.objective)}</title></circle>`).join('');
    }
    function render(d){
      document.body.dataset.updates=(+document.body.dataset.updates||0)+1;
      document.body.dataset.generations=d.generations.length;document.body.dataset.state=d.state;
      const p=Math.min(100,100*d.worlds/Math.max(1,d.budget));
      $('status').innerHTML=`<span class="state ${d.state}">${esc(d.status)}</span> · ${d.generations.length} generation${d.generations.length===1?'':'s'}, ${d.worlds} of ${d.budget} worlds (${d.replicas} a point)`
        +(d.state==='running'?`<div class="bar"><span style="width:${p.toFixed(1)}%"></span></div>`:'')
        +(d.resume?`<br><small>resume:</small> <code>${esc(d.resume)}</code>`:'');
      const b=d.best;
      $('best').innerHTML=b?`<table><tr><th>parameter</th><th>value</th></tr>${d.parameters.map((n,i)=>`<tr><td><code>${esc(n)}</code></td><td class="n value">${fmt(b.values[i])}</td></tr>`).join('')}</table>`
        +`<p>${esc(b.metrics)}${b.met?' <strong class="done">(meets every want)</strong>':''}<br><small>${esc(d.objectiveLabel)}: <span class="objective">${fmt(b.objective)}</span> · point ${b.point}, worlds ${b.world}–${b.world+d.replicas-1} of worlds.csv · <a class="replay" href="/replay?run=${encodeURIComponent(run)}&world=${b.world}">replay world ${b.world}</a></small></p>`
        :'<p><small>no generation recorded yet</small></p>';
      chart(d);
      const rows=d.generations.slice(-200).reverse();
      $('generations').innerHTML=rows.map(g=>`<tr><td class="n">${g.generation}</td><td class="n">${g.worlds}</td><td class="n">${fmt(g.objective)}</td><td>${esc(g.best)}</td><td>${g.met?'yes':'no'}</td></tr>`).join('');
      const files=d.reports.filter(f=>/(report\.html|best\.yaml|tune\.json|worlds\.csv)$/.test(f));
      $('answer').innerHTML=(d.answer?`<p class="answer"><strong>${esc(d.answer)}</strong></p>`:'')
        +(files.length?`<p>${files.map(f=>{const n=f.split('/').pop();return `<a href="${url(f)}">${n==='report.html'?'the tune page (report.html)':esc(n)}</a>`}).join(' · ')}</p>`:'');
    }
    fetch(`/api/tune?run=${encodeURIComponent(run)}`).then(async r=>{if(!r.ok){$('status').textContent=await r.text();return}render(await r.json())});
    if(window.EventSource){const es=new EventSource(`/api/tune/events?run=${encodeURIComponent(run)}`);es.addEventListener('tune',e=>render(JSON.parse(e.data)))}
    """#
}
