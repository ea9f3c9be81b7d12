// Brushing for the parallel-coordinates chart: drag along an axis to keep only the lines that
// pass through that range (several axes: through all of them); a click on an axis clears its
// range. The script lives inside the chart's <svg> (it finds the chart as its parent), reads the
// lines' own pixel rows from their `points`, and only hides lines: with scripts off the chart
// shows every line, as before. Plain ES5, no network, no storage.

enum ParallelBrush {
    /// The script's text (no "]]>" inside: it sits in a CDATA section, so the SVG stays XML).
    static let script = """
    (function(){var svg=document.currentScript.parentNode,sel={};\
    var lines=[].slice.call(svg.querySelectorAll('polyline.pc'));\
    var ys=lines.map(function(l){return l.getAttribute('points').split(' ').map(function(p){return +p.split(',')[1];});});\
    function at(e){return new DOMPoint(e.clientX,e.clientY).matrixTransform(svg.getScreenCTM().inverse()).y;}\
    function apply(){var n=0;lines.forEach(function(l,i){var ok=true;for(var k in sel){var y=ys[i][k];if(y<sel[k][0]||y>sel[k][1]){ok=false;break;}}\
    l.style.display=ok?'':'none';if(ok)n++;});\
    svg.querySelector('.brushcount').textContent=Object.keys(sel).length?n+' of '+lines.length+' lines in the ranges dragged':'';}\
    function draw(k){var b=svg.querySelector('rect.sel[data-k="'+k+'"]');if(!sel[k]){b.setAttribute('height','0');return;}\
    b.setAttribute('y',sel[k][0]);b.setAttribute('height',sel[k][1]-sel[k][0]);}\
    [].forEach.call(svg.querySelectorAll('rect.brush'),function(r){var k=+r.getAttribute('data-k'),y0=null,moved=false;\
    r.addEventListener('pointerdown',function(e){y0=at(e);moved=false;r.setPointerCapture(e.pointerId);e.preventDefault();});\
    r.addEventListener('pointermove',function(e){if(y0===null)return;var y=at(e);if(Math.abs(y-y0)<2)return;moved=true;\
    sel[k]=[Math.min(y0,y),Math.max(y0,y)];draw(k);apply();});\
    r.addEventListener('pointerup',function(){if(y0!==null&&!moved){delete sel[k];draw(k);apply();}y0=null;});});})();
    """

    /// The `<script>` element as it goes into the chart.
    static var element: String { "<script><![CDATA[" + script + "]]></script>\n" }
}
