extension Pages {
    /// The replay page's script: sliders from /api/sweep, replays from /api/replay drawn on a
    /// canvas tick by tick at the world's own pace. When a replay's animation ends, its pane's
    /// `data-ended` is set and its last drawn frame is printed beside the final state rows.
    static let replayScript = #"""
    const $=id=>document.getElementById(id);
    const run=$('run').dataset.run;
    const esc=s=>String(s??'').replace(/[&<>"']/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;',"'":'&#39;'}[c]));
    const fmt=x=>Math.abs(x)>=1e4||(x!==0&&Math.abs(x)<1e-3)?x.toExponential(3):String(+x.toPrecision(6));
    let info=null,timer=null,serial=[0,0];
    const target=()=>+document.querySelector('input[name=target]:checked').value;
    function sliders(){
      $('sliders').innerHTML=info.axes.map((a,i)=>{
        const step=a.max>a.min?(a.max-a.min)/200:'any';
        const mid=a.values?a.values[0]:a.min;
        const list=a.values?`<datalist id="levels${i}">${a.values.map(v=>`<option value="${v}">`).join('')}</datalist>`:'';
        return `<div class="slider"><label for="axis${i}"><code>${esc(a.path)}</code> <small>${fmt(a.min)} … ${fmt(a.max)}</small></label>`
          +`<input type="range" id="axis${i}" data-path="${esc(a.path)}" min="${a.min}" max="${a.max}" step="${step}" value="${mid}" ${a.values?`list="levels${i}"`:''}>`
          +`<output id="out${i}">${fmt(mid)}</output>${list}</div>`}).join('');
      info.axes.forEach((a,i)=>{const s=$('axis'+i);s.oninput=()=>{$('out'+i).textContent=fmt(+s.value);clearTimeout(timer);timer=setTimeout(replayValues,250)}});
    }
    function replayValues(){
      const q=info.axes.map((a,i)=>'set='+encodeURIComponent(a.path+'='+$('axis'+i).value)).join('&');
      replay(q,target());
    }
    async function replay(q,k){
      const n=++serial[k],pane=$('pane'+k);
      pane.dataset.ended='';pane.dataset.loading='1';$('error').textContent='';
      const r=await fetch(`/api/replay?run=${encodeURIComponent(run)}&${q}`);
      if(n!==serial[k])return;
      if(!r.ok){$('error').textContent=await r.text();pane.dataset.loading='';return}
      show(pane,k,await r.json(),n);
    }
    function show(pane,k,d,n){
      const W=d.bounds[0],H=d.bounds[1],scale=Math.min(2,900/Math.max(W,H));
      const m=d.metrics&&d.metrics.items?d.metrics.items:[];
      pane.innerHTML=`<h2>${'AB'[k]}: ${esc(d.label)}</h2><canvas width="${Math.round(W*scale)}" height="${Math.round(H*scale)}"></canvas>`
        +`<p><small class="clock">tick 0 of ${d.ticksRun}</small>${d.pausedAt?` <small>(every item asleep at tick ${d.pausedAt}: the world ends there, as in the run)</small>`:''}</p>`
        +`<p><small>The same world in the terminal:</small><br><code class="command">${esc(d.command)}</code></p>`
        +`<h3>Metrics</h3><div style="overflow-x:auto"><table><tr><th>item</th><th>contacts</th><th>bounces (pt)</th><th>rest (s)</th></tr>`
        +d.items.map((it,i)=>{const r=m[i]||{};return `<tr><td>${esc(it.name)}</td><td class="n">${r.contacts??''}</td><td>${(r.bounceHeights||[]).slice(0,4).map(fmt).join(', ')}</td><td class="n">${r.restTime!=null?fmt(r.restTime):'never'}</td></tr>`}).join('')
        +`</table></div><h3>Contacts (${d.contacts.length})</h3><div style="max-height:10em;overflow:auto"><table>`
        +d.contacts.slice(0,200).map(c=>`<tr><td class="n">${c.tick}</td><td>${esc(c.item)} – ${esc(c.other)}</td><td class="n">${fmt(c.x)}, ${fmt(c.y)}</td></tr>`).join('')
        +`</table></div><h3>Final state (item,x,y,angle,vx,vy,angular_velocity)</h3><pre class="final">${esc(d.final.join('\n'))}</pre><pre class="drawn"></pre>`;
      const cv=pane.querySelector('canvas'),g=cv.getContext('2d'),clock=pane.querySelector('.clock');
      const start=performance.now(),last=d.frames.length-1;
      function draw(t){
        const f=d.frames[t];
        g.setTransform(scale,0,0,scale,0,0);g.clearRect(0,0,W,H);
        g.strokeStyle='#888';g.lineWidth=1.5/scale;
        for(const b of d.boundaries){g.beginPath();g.moveTo(b[0],b[1]);g.lineTo(b[2],b[3]);g.stroke()}
        g.fillStyle='rgba(220,60,40,.55)';
        for(const c of d.contacts){if(c.tick>t+1)break;g.beginPath();g.arc(c.x,c.y,3/scale,0,7);g.fill()}
        d.items.forEach((it,i)=>{
          g.save();g.translate(f[3*i],f[3*i+1]);g.rotate(f[3*i+2]);
          g.fillStyle=`hsla(${(i*67)%360},60%,55%,.75)`;g.strokeStyle='#333';g.beginPath();
          if(it.shape==='ellipse')g.ellipse(0,0,it.width/2,it.height/2,0,0,7);
          else if(it.shape==='path'&&it.path.length){g.moveTo(it.path[0][0],it.path[0][1]);for(const p of it.path.slice(1))g.lineTo(p[0],p[1]);g.closePath()}
          else g.rect(-it.width/2,-it.height/2,it.width,it.height);
          g.fill();g.stroke();g.restore();
        });
        clock.textContent=`tick ${t+1} of ${d.ticksRun}`;
      }
      (function frame(){
        if(n!==serial[k])return;
        const t=Math.min(last,Math.floor((performance.now()-start)/1000/d.tick));
        if(last>=0)draw(t);
        if(t<last){requestAnimationFrame(frame);return}
        const f=d.frames[last]||[];
        pane.querySelector('.drawn').textContent='drawn at the end: '+d.items.map((it,i)=>`${it.name} ${f[3*i]},${f[3*i+1]},${f[3*i+2]}`).join('; ');
        pane.dataset.loading='';pane.dataset.ended='1';
      })();
    }
    fetch(`/api/sweep?run=${encodeURIComponent(run)}`).then(async r=>{
      if(!r.ok){$('about').textContent=await r.text();return}
      info=await r.json();
      $('about').innerHTML=info.search
        ?`<small>${esc(info.name)}, a search: ${info.worlds} worlds evaluated so far, of ${info.ticks} ticks (${fmt(info.tick)} s each). Pick one by its number (worlds.csv's <code>world</code>) or on the chart.</small>`
          +(info.answer!=null?` <button id="answer" data-world="${info.answer}">Replay the answer (world ${info.answer})</button>`:'')
        :`<small>${esc(info.name)}: ${info.worlds} worlds of ${info.ticks} ticks (${fmt(info.tick)} s each). Worlds replay on the engine's lanes, as the run ran them.</small>`;
      if(info.answer!=null)$('answer').onclick=()=>{$('world').value=info.answer;replay('world='+info.answer,target())};
      $('world').max=info.worlds-1;sliders();
      const w=new URLSearchParams(location.search).get('world');
      if(w!==null){$('world').value=w;replay('world='+encodeURIComponent(w),0)}
    });
    async function chart(x,y){
      const q=x?`&x=${encodeURIComponent(x)}&y=${encodeURIComponent(y)}`:'';
      const r=await fetch(`/api/worlds?run=${encodeURIComponent(run)}${q}`);
      if(!r.ok){$('chart-box').querySelector('summary').textContent+=': '+(await r.text());return}
      const d=await r.json(),P=d.points,W=640,H=300,L=48,B=28;
      for(const [id,v] of [['chart-x',d.x],['chart-y',d.y]]){const s=$(id);if(!s.options.length)s.innerHTML=d.columns.slice(1).map(c=>`<option>${esc(c)}</option>`).join('');s.value=v}
      const xs=P.map(p=>p[1]),ys=P.map(p=>p[2]);
      const [x0,x1,y0,y1]=[Math.min(...xs),Math.max(...xs),Math.min(...ys),Math.max(...ys)];
      const sx=v=>L+(W-L-10)*(x1>x0?(v-x0)/(x1-x0):.5),sy=v=>H-B-(H-B-10)*(y1>y0?(v-y0)/(y1-y0):.5);
      $('chart').innerHTML=`<line x1="${L}" y1="${H-B}" x2="${W-10}" y2="${H-B}" stroke="#999"/><line x1="${L}" y1="10" x2="${L}" y2="${H-B}" stroke="#999"/>`
        +`<text x="${W/2}" y="${H-6}" font-size="12" text-anchor="middle">${esc(d.x)} (${fmt(x0)} … ${fmt(x1)})</text>`
        +`<text x="12" y="${H/2}" font-size="12" text-anchor="middle" transform="rotate(-90 12 ${H/2})">${esc(d.y)} (${fmt(y0)} … ${fmt(y1)})</text>`
        +P.map(p=>`<circle cx="${sx(p[1]).toFixed(1)}" cy="${sy(p[2]).toFixed(1)}" r="4" data-world="${p[0]}"><title>world ${p[0]}: ${esc(d.x)} ${fmt(p[1])}, ${esc(d.y)} ${fmt(p[2])}</title></circle>`).join('');
    }
    $('chart').onclick=e=>{const w=e.target.dataset&&e.target.dataset.world;if(w!==undefined){$('world').value=w;replay('world='+w,target())}};
    $('chart-box').ontoggle=()=>{if($('chart-box').open&&!$('chart').childElementCount)chart()};
    for(const id of ['chart-x','chart-y'])$(id).onchange=()=>chart($('chart-x').value,$('chart-y').value);
    $('go').onclick=()=>replay('world='+encodeURIComponent($('world').value),target());
    """#
}
