-- Each best net against round 0's net, pair by pair over the same openings (seed 5571): A's points in a pair (0 to 2)
-- of the net minus those of leaf32, halved: the score difference a game, with its standard error.
-- sqlite3 /tmp/h55b/anchors.db < results/puct/loop1/anchors/paired.sql  (the database of scripts/loop-anchors.sh)
with pts as (
  select r.name as run, g.idx / 2 as pair,
         sum(case when g.result = 'draw' then 0.5
                  when (g.result = 'white') = (g.idx % 2 = 0) then 1.0 else 0.0 end) as s
  from game g join run r on r.id = g.run_id
  where r.name in ('anchors/leaf32-vs-best', 'anchors/L1.9-vs-best', 'anchors/L1.6-vs-best', 'anchors/L1.8-vs-best')
  group by r.name, g.idx / 2)
select a.run, b.run, count(*), avg(a.s - b.s) / 2,
       sqrt((avg((a.s - b.s) * (a.s - b.s)) - avg(a.s - b.s) * avg(a.s - b.s)) / (count(*) - 1)) / 2
from pts a join pts b on a.pair = b.pair and b.run = 'anchors/leaf32-vs-best' and a.run != b.run
group by a.run;
