(module
  (import "env" "memory" (memory 1))
  ;; out[r] = dot(q, row r) for r < rows: f32 vectors of dim floats (a multiple of 8), rows
  ;; contiguous from m; q, m and out are byte offsets. Two accumulators: the adds of one
  ;; do not wait on the other's.
  (func (export "scores") (param $q i32) (param $m i32) (param $rows i32) (param $dim i32) (param $out i32)
    (local $r i32) (local $i i32) (local $bytes i32) (local $a v128) (local $b v128)
    (local.set $bytes (i32.shl (local.get $dim) (i32.const 2)))
    (block $done
      (loop $row
        (br_if $done (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $a (v128.const i32x4 0 0 0 0))
        (local.set $b (v128.const i32x4 0 0 0 0))
        (local.set $i (i32.const 0))
        (loop $cols
          (local.set $a (f32x4.add (local.get $a)
            (f32x4.mul (v128.load (i32.add (local.get $q) (local.get $i)))
                       (v128.load (i32.add (local.get $m) (local.get $i))))))
          (local.set $b (f32x4.add (local.get $b)
            (f32x4.mul (v128.load offset=16 (i32.add (local.get $q) (local.get $i)))
                       (v128.load offset=16 (i32.add (local.get $m) (local.get $i))))))
          (local.set $i (i32.add (local.get $i) (i32.const 32)))
          (br_if $cols (i32.lt_u (local.get $i) (local.get $bytes))))
        (local.set $a (f32x4.add (local.get $a) (local.get $b)))
        (f32.store (i32.add (local.get $out) (i32.shl (local.get $r) (i32.const 2)))
          (f32.add
            (f32.add (f32x4.extract_lane 0 (local.get $a)) (f32x4.extract_lane 1 (local.get $a)))
            (f32.add (f32x4.extract_lane 2 (local.get $a)) (f32x4.extract_lane 3 (local.get $a)))))
        (local.set $m (i32.add (local.get $m) (local.get $bytes)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
