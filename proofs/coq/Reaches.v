(* reaches as an inductive predicate, over any type of points and any relation between them
   (no symmetry, no finiteness: digraphs included), and what the unbounded proofs of
   proofs/unbounded.py take from it.

   - reaches_closed, reaches_least, supported_reaches: the facts the solvers are given about
     each reaches symbol (closure; minimality for a closed set; ranks into the integers).
   - emptying_preserves: removing stones keeps every remaining stone's path to Empty.
   - move_well_formed: T1's step, end to end (a move leaves every point reaching Empty).
   - games_well_formed: T1 (=>), every board reached from the empty board by moves.
   - well_formed_reachable: T1 (<=), on a finite type of points every well-formed board is
     reached from the empty board, one stone at a time.
   - disjoint_count: the score bound from the pointwise disjointness of the counted sets.

   clear is a relation here, stated pointwise with the case split of its definition:
   a stone of p that does not reach Empty becomes Empty, every other point keeps its colour.
   The file ends by printing the axioms the theorems rest on: none. *)

Require Import List ZArith Lia.
Import ListNotations.

Inductive colour := Empty | Black | White.

Definition opp (p : colour) : colour :=
  match p with Black => White | White => Black | Empty => Black end.

Section Reaches.

Variable Point : Type.
Variable adj : Point -> Point -> Prop.
Variable eq_dec : forall x y : Point, {x = y} + {x <> y}.

Definition board := Point -> colour.

Inductive reaches (b : board) (c : colour) : Point -> Prop :=
| reaches_here : forall v, b v = c -> reaches b c v
| reaches_step : forall v w, adj v w -> (b w = b v \/ b w = c) -> reaches b c w -> reaches b c v.

Definition closed (b : board) (c : colour) (S : Point -> Prop) : Prop :=
  (forall v, b v = c -> S v) /\
  (forall v w, adj v w -> (b w = b v \/ b w = c) -> S w -> S v).

Lemma reaches_closed : forall b c, closed b c (reaches b c).
Proof.
  intros b c; split; intros.
  - apply reaches_here; assumption.
  - eapply reaches_step; eassumption.
Qed.

Lemma reaches_least : forall b c S, closed b c S -> forall v, reaches b c v -> S v.
Proof.
  intros b c S [Hbase Hstep] v H.
  induction H as [v Hv | v w Ha Hc Hr IH].
  - apply Hbase; assumption.
  - eapply Hstep; eassumption.
Qed.

Definition supported (b : board) (c : colour) (S : Point -> Prop) (rank : Point -> Z) : Prop :=
  forall v, S v -> (0 <= rank v)%Z /\
    (b v = c \/ exists w, adj v w /\ (b w = b v \/ b w = c) /\ S w /\ (rank w < rank v)%Z).

Lemma supported_reaches : forall b c S rank, supported b c S rank -> forall v, S v -> reaches b c v.
Proof.
  intros b c S rank Hs.
  assert (Hn : forall n v, Z.to_nat (rank v) < n -> S v -> reaches b c v).
  { induction n as [| n IH]; intros v Hlt Hv.
    - lia.
    - destruct (Hs v Hv) as [Hpos [Hc | [w [Ha [Hcol [Hw Hr]]]]]].
      + apply reaches_here; assumption.
      + destruct (Hs w Hw) as [Hwpos _].
        eapply reaches_step; try eassumption.
        apply IH; [lia | assumption]. }
  intros v Hv; eapply Hn; [| eassumption]; apply Nat.lt_succ_diag_r.
Qed.

Definition well_formed (b : board) : Prop := forall v, reaches b Empty v.

Definition emptied (small large : board) : Prop := forall x, small x = large x \/ small x = Empty.

Lemma emptying_preserves : forall b b', emptied b' b ->
  forall u, reaches b Empty u -> b' u = b u -> b u <> Empty -> reaches b' Empty u.
Proof.
  intros b b' Hle u H.
  induction H as [v Hv | v w Ha Hc Hr IH]; intros Hsame Hstone.
  - contradiction.
  - destruct (Hle w) as [Hw | Hw].
    + destruct Hc as [Hc | Hc].
      * eapply reaches_step; [eassumption | left; congruence |].
        apply IH; congruence.
      * eapply reaches_step; [eassumption | right; congruence |].
        apply reaches_here; congruence.
    + eapply reaches_step; [eassumption | right; assumption |].
      apply reaches_here; assumption.
Qed.

Definition cleared (b : board) (p : colour) (b' : board) : Prop :=
  forall x, (b x = p /\ ~ reaches b Empty x /\ b' x = Empty) \/
            ((b x <> p \/ reaches b Empty x) /\ b' x = b x).

Definition update (b : board) (m : Point) (c : colour) : board :=
  fun x => if eq_dec x m then c else b x.

Definition moved (b : board) (p : colour) (m : Point) (b' : board) : Prop :=
  b m = Empty /\ exists b2, cleared (update b m p) (opp p) b2 /\ cleared b2 p b'.

Lemma cleared_emptied : forall b p b', cleared b p b' -> emptied b' b.
Proof. intros b p b' H x; destruct (H x) as [[_ [_ E]] | [_ E]]; auto. Qed.

Lemma cleared_alive : forall b p b' x, cleared b p b' -> b' x <> Empty -> b' x = p -> reaches b Empty x.
Proof.
  intros b p b' x H Hne Hp.
  destruct (H x) as [[_ [_ E]] | [[Hb | Hr] E]]; [contradiction | congruence | assumption].
Qed.

Lemma cleared_kept : forall b p b' x, cleared b p b' -> b' x <> Empty -> b' x = b x.
Proof. intros b p b' x H Hne; destruct (H x) as [[_ [_ E]] | [_ E]]; [contradiction | assumption]. Qed.

Definition colour_eq_dec : forall a b : colour, {a = b} + {a <> b}.
Proof. decide equality. Defined.

Lemma other_player : forall c p, p <> Empty -> c <> Empty -> c <> p -> c = opp p.
Proof. intros c p Hp Hc Hcp; destruct c, p; simpl; congruence. Qed.

(* T1's step: after any move every point reaches Empty (the opponent's survivors lived on
   b[m -> p] and keep their paths through both clearings, the mover's survivors lived after
   the first clearing and keep theirs through the second). *)
Theorem move_well_formed : forall b p m b3, p <> Empty -> moved b p m b3 -> well_formed b3.
Proof.
  intros b p m b3 Hp [_ [b2 [H1 H2]]] x.
  destruct (colour_eq_dec (b3 x) Empty) as [He | Hne].
  - apply reaches_here; assumption.
  - assert (K3 : b3 x = b2 x) by (eapply cleared_kept; eassumption).
    assert (R2 : reaches b2 Empty x).
    { destruct (colour_eq_dec (b3 x) p) as [Hp3 | Hnp].
      - eapply cleared_alive; [eassumption | assumption | assumption].
      - assert (Hb2 : b2 x <> Empty) by congruence.
        assert (K2 : b2 x = update b m p x) by (eapply cleared_kept; eassumption).
        assert (Hopp : b2 x = opp p) by (apply other_player; congruence).
        assert (R1 : reaches (update b m p) Empty x) by (eapply cleared_alive; eassumption).
        eapply emptying_preserves; [eapply cleared_emptied; eassumption | eassumption | congruence | congruence]. }
    eapply emptying_preserves; [eapply cleared_emptied; eassumption | eassumption | congruence | congruence].
Qed.

(* The boards reached from the empty board by moves (passes leave the board as it is). *)
Inductive reachable : board -> Prop :=
| reachable_empty : forall c, (forall x, c x = Empty) -> reachable c
| reachable_move : forall c p m c', reachable c -> p <> Empty -> moved c p m c' -> reachable c'.

(* T1 (=>). *)
Theorem games_well_formed : forall c, reachable c -> well_formed c.
Proof.
  intros c H; destruct H as [c Hc | c p m c' _ Hp Hm].
  - intro x; apply reaches_here; apply Hc.
  - eapply move_well_formed; eassumption.
Qed.

Lemma well_formed_emptied : forall b c, well_formed b -> emptied c b -> well_formed c.
Proof.
  intros b c Hw Hle x.
  destruct (colour_eq_dec (c x) Empty) as [E | N].
  - apply reaches_here; assumption.
  - destruct (Hle x) as [Hs | Hs]; [| contradiction].
    eapply emptying_preserves; [eassumption | apply Hw | assumption | congruence].
Qed.

Lemma cleared_nothing : forall c p, well_formed c -> cleared c p c.
Proof. intros c p Hw x; right; split; [right; apply Hw | reflexivity]. Qed.

(* T1's converse, one stone: replaying a stone of a well-formed board b on a board made of
   some of b's stones adds that stone and removes nothing. *)
Lemma replay : forall b c u, well_formed b -> emptied c b -> c u = Empty -> b u <> Empty ->
  moved c (b u) u (update c u (b u)).
Proof.
  intros b c u Hw Hle Hu Hb; split; [assumption |].
  assert (Hg : well_formed (update c u (b u))).
  { apply (well_formed_emptied b); [assumption |].
    intro x; unfold update; destruct (eq_dec x u) as [-> | _]; [left; reflexivity | apply Hle]. }
  exists (update c u (b u)); split; apply cleared_nothing; assumption.
Qed.

Definition restrict (b : board) (L : list Point) : board :=
  fun x => if in_dec eq_dec x L then b x else Empty.

Lemma moved_ext : forall c p m c' d, moved c p m c' -> (forall x, c' x = d x) -> moved c p m d.
Proof.
  intros c p m c' d [Hm [b2 [H1 H2]]] Hd; split; [assumption |].
  exists b2; split; [assumption |]; intro x; rewrite <- Hd; apply H2.
Qed.

Lemma reachable_ext : forall c d, reachable c -> (forall x, c x = d x) -> reachable d.
Proof.
  intros c d H Hd; destruct H as [c Hc | c0 p m c H0 Hp Hm].
  - apply reachable_empty; intro x; rewrite <- Hd; apply Hc.
  - eapply reachable_move; [eassumption | eassumption | eapply moved_ext; eassumption].
Qed.

Lemma restrict_reachable : forall b, well_formed b -> forall L, reachable (restrict b L).
Proof.
  intros b Hw L; induction L as [| a L IH].
  - apply reachable_empty; intro x; reflexivity.
  - destruct (in_dec eq_dec a L) as [Hin | Hout].
    + apply (reachable_ext (restrict b L)); [assumption |].
      intro x; unfold restrict.
      destruct (in_dec eq_dec x L) as [i | n], (in_dec eq_dec x (a :: L)) as [i' | n']; try reflexivity.
      * exfalso; apply n'; right; assumption.
      * exfalso; destruct i' as [-> | i']; contradiction.
    + destruct (colour_eq_dec (b a) Empty) as [Ea | Na].
      * apply (reachable_ext (restrict b L)); [assumption |].
        intro x; unfold restrict.
        destruct (in_dec eq_dec x L) as [i | n], (in_dec eq_dec x (a :: L)) as [i' | n']; try reflexivity.
        -- exfalso; apply n'; right; assumption.
        -- destruct i' as [-> | i']; [symmetry; assumption | contradiction].
      * eapply reachable_move; [exact IH | exact Na |].
        eapply moved_ext.
        { apply (replay b (restrict b L) a); [assumption | | | assumption].
          - intro x; unfold restrict; destruct (in_dec eq_dec x L); [left | right]; reflexivity.
          - unfold restrict; destruct (in_dec eq_dec a L); [contradiction | reflexivity]. }
        intro x; unfold update, restrict; destruct (eq_dec x a) as [-> | Hne].
        -- destruct (in_dec eq_dec a L); [contradiction |].
           destruct (in_dec eq_dec a (a :: L)) as [_ | Hn]; [reflexivity | exfalso; apply Hn; left; reflexivity].
        -- destruct (in_dec eq_dec x L) as [i | n], (in_dec eq_dec x (a :: L)) as [i' | n']; try reflexivity.
           ++ exfalso; apply n'; right; assumption.
           ++ exfalso; destruct i' as [-> | i']; [apply Hne; reflexivity | contradiction].
Qed.

(* T1 (<=), on a finite type of points (enum lists every point). *)
Theorem well_formed_reachable : forall enum : list Point, (forall x, In x enum) ->
  forall b, well_formed b -> reachable b.
Proof.
  intros enum Hall b Hw.
  apply (reachable_ext (restrict b enum)); [apply restrict_reachable; assumption |].
  intro x; unfold restrict; destruct (in_dec eq_dec x enum) as [_ | n]; [reflexivity | exfalso; apply n, Hall].
Qed.

(* The score bound: two disjoint counted sets of a list of points count at most its length
   (the score's counted sets are decidable on a finite graph; the list enumerates it). *)
Fixpoint count (A : Point -> bool) (l : list Point) : nat :=
  match l with
  | [] => 0
  | x :: rest => (if A x then 1 else 0) + count A rest
  end.

Theorem disjoint_count : forall (A B : Point -> bool) l,
  (forall x, A x = true -> B x = true -> False) -> count A l + count B l <= length l.
Proof.
  intros A B l H; induction l as [| x l IH]; simpl; [lia |].
  destruct (A x) eqn:Ea, (B x) eqn:Eb; simpl; try lia.
  exfalso; eapply H; eassumption.
Qed.

End Reaches.

Print Assumptions reaches_closed.
Print Assumptions reaches_least.
Print Assumptions supported_reaches.
Print Assumptions emptying_preserves.
Print Assumptions move_well_formed.
Print Assumptions games_well_formed.
Print Assumptions well_formed_reachable.
Print Assumptions disjoint_count.
